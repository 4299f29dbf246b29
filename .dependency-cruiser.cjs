// The layer order of src/ (docs/door.md, "Layers"), checked by `npm run lint` (depcruise).
// A folder may import from its own layer's folder and from any layer below it; never from a
// layer above, and never from another folder of its own layer. No import circle anywhere.
//
// From the bottom. Each entry is one layer; the names are folders under src/ (main.ts is the
// file src/main.ts). src/client is the published SDK and stands apart: it imports only
// src/contract and itself, and nothing in the service imports it.
const LAYERS = [
  ['contract', 'env'],
  ['common'],
  ['openapi'],
  ['metrics'],
  ['workers'],
  ['embeddings'],
  ['llm'],
  ['database'],
  ['auth', 'settings', 'agents', 'inspector', 'webhooks'],
  ['lessons'],
  ['memories'],
  ['retrieval', 'grants'],
  ['ingest'],
  ['mcp'],
  ['app'],
  ['main.ts'],
];

const pathOf = (name) => (name.endsWith('.ts') ? `^src/${name.replace('.', '\\.')}$` : `^src/${name}/`);
const anyOf = (names) => `(${names.map(pathOf).join('|')})`;

const layerRules = LAYERS.flatMap((layer, level) => {
  const above = LAYERS.slice(level + 1).flat();
  return layer.flatMap((name) => {
    const rules = [];
    if (above.length > 0) {
      rules.push({
        name: `layer-${name.replace('.ts', '')}-up`,
        comment: `${name} is below ${above.join(', ')}: it must not import from them (the layer order in .dependency-cruiser.cjs).`,
        severity: 'error',
        from: { path: pathOf(name) },
        to: { path: anyOf(above) },
      });
    }
    const peers = layer.filter((other) => other !== name);
    if (peers.length > 0) {
      rules.push({
        name: `layer-${name.replace('.ts', '')}-peer`,
        comment: `${name} and ${peers.join(', ')} are one layer: neither imports the other.`,
        severity: 'error',
        from: { path: pathOf(name) },
        to: { path: anyOf(peers) },
      });
    }
    return rules;
  });
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (type-only imports included) ties the modules of the circle into one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'client-stands-apart',
      comment: 'src/client is the published SDK: it imports only src/contract and itself.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/(client|contract)/' },
    },
    {
      name: 'nothing-imports-the-client',
      comment: 'The service does not depend on its own SDK (src/mcp/stdio is not the service: it is a client of it).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(client|mcp/stdio)/' },
      to: { path: '^src/client/' },
    },
    {
      name: 'mcp-stdio-is-a-client',
      comment:
        'The atrium-mcp bin (src/mcp/stdio) talks to a running Atrium over HTTP: it imports the client, the wire types and the tool catalogue (src/mcp/tools), never the service.',
      severity: 'error',
      from: { path: '^src/mcp/stdio/' },
      to: { path: '^src/', pathNot: '^src/(client|contract|mcp/stdio|mcp/tools|memories/dto/limits\\.ts$)' },
    },
    {
      name: 'nothing-imports-mcp-stdio',
      comment: 'The atrium-mcp bin is an entry point of its own.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/mcp/stdio/' },
      to: { path: '^src/mcp/stdio/' },
    },
    {
      name: 'mcp-tools-stand-alone',
      comment: 'The tool catalogue is shared by the service and the stdio bin: wire types and limits only, no service code.',
      severity: 'error',
      from: { path: '^src/mcp/tools/' },
      to: { path: '^src/', pathNot: '^src/(contract/|mcp/tools/|memories/dto/limits\\.ts$)' },
    },
    {
      name: 'every-folder-has-a-layer',
      comment: 'A new folder under src/ gets a place in LAYERS (.dependency-cruiser.cjs) before anything imports it.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '^src/',
        pathNot: `^src/(client/|${LAYERS.flat()
          .map(pathOf)
          .map((p) => p.slice(5))
          .join('|')})`,
      },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
