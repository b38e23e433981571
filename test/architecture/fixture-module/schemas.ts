// The widget as its routes answer with it and as its event carries it.
import { Type } from '@sinclair/typebox';

export const Widget = Type.Object({ object: Type.Literal('widget'), id: Type.String() });
export const WidgetParams = Type.Object({ id: Type.String() });
