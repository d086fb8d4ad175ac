/** Boundaries of the repository (see ../shared/STYLE.md "Our layout"), checked by `npm test`. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Runtime import cycles make load order matter.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-is-pure',
      severity: 'error',
      comment: 'protocol/ runs in Node and in the service worker: no Node API.',
      from: { path: '^protocol/src', pathNot: '\\.test\\.ts$|\\.fixtures\\.ts$|schema-export|json-schema-to-ts' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'protocol-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { path: '^(native-host|extension|test)/' },
    },
    { name: 'extension-not-host', severity: 'error', from: { path: '^extension/' }, to: { path: '^native-host/' } },
    { name: 'host-not-extension', severity: 'error', from: { path: '^native-host/' }, to: { path: '^extension/' } },
    {
      name: 'backends-not-host',
      severity: 'error',
      comment: 'host/ uses backends/, never the reverse.',
      from: { path: '^native-host/src/backends/' },
      to: { path: '^native-host/src/host/' },
    },
    {
      name: 'app-server-not-host',
      severity: 'error',
      from: { path: '^native-host/src/app-server/' },
      to: { path: '^native-host/src/(host|backends)/' },
    },
    {
      name: 'relay-stays-thin',
      severity: 'error',
      comment:
        'tether host as a relay loads no agent: the daemon serves the connection. The relay and the daemon client import neither backends, the app-server, the store nor the daemon itself.',
      from: { path: '^native-host/src/(host/relay|daemon/(client|handshake|paths))\\.ts$' },
      to: {
        path: '^native-host/src/(backends|app-server|store|session)/|^native-host/src/daemon/(server|connection|cli)\\.ts$',
      },
    },
    {
      name: 'only-the-daemon-serves-the-socket',
      severity: 'error',
      comment:
        'The daemon server is started by `tether daemon run` only; the host reaches it through daemon/client.ts ' +
        '(test helpers may check that a daemon still holds its lock).',
      from: { path: '^native-host/src/', pathNot: '^native-host/src/(daemon/|testing/|cli\\.ts$)' },
      to: { path: '^native-host/src/daemon/(server|connection|cli|lock)\\.ts$' },
    },
    {
      name: 'nothing-below-host-knows-the-daemon',
      severity: 'error',
      comment: 'Backends, the app-server and the store serve the host and the daemon alike, and import neither.',
      from: { path: '^native-host/src/(backends|app-server|store|session|mcp)/' },
      to: { path: '^native-host/src/daemon/' },
    },
    {
      name: 'pages-not-worker',
      severity: 'error',
      comment: 'UI pages talk to the service worker through messages only.',
      from: { path: '^extension/src/(sidepanel|popup|options|shared)/' },
      to: { path: '^extension/src/background/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    exclude: { path: '(^|/)(dist|node_modules)/' },
  },
};
