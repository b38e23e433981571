// The verifications module's public surface: nothing. Other modules reach it only through the hooks its
// manifest (module.ts) declares and the composition root wires (docs/architecture.md, Import rules).
export {};
