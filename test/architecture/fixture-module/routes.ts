// POST /v1/widgets, GET /v1/widgets/{id} and POST /v1/widgets/{id}/jam: a resource that keeps
// nothing, enough to show its id prefix, its operations, its tag and its error code reaching the
// document and the answers.
import type { RouteModule } from '../../../src/contracts/wiring.js';
import { DomainError } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { Widget, WidgetParams } from './schemas.js';

export const widgetRoutes: RouteModule = (app) => {
  app.post('/widgets', { schema: { tags: ['Widgets'], summary: 'Create a widget', response: { 201: Widget } } }, async (_request, reply) => {
    reply.code(201);
    return { object: 'widget' as const, id: newId('widget') };
  });
  app.get(
    '/widgets/:id',
    { schema: { tags: ['Widgets'], summary: 'Retrieve a widget', params: WidgetParams, response: { 200: Widget } } },
    async (request) => ({ object: 'widget' as const, id: request.params.id }),
  );
  app.post(
    '/widgets/:id/jam',
    {
      schema: {
        tags: ['Widgets'],
        summary: 'Jam a widget',
        description: 'Always refused: 423 widget_jammed.',
        params: WidgetParams,
        response: { 200: Widget },
      },
    },
    async () => {
      throw new DomainError('widget_jammed', 'The widget is jammed.');
    },
  );
};
