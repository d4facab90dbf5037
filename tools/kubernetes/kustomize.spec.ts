import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { applyJsonPatch, parseEnvFile, renderKustomization, type Manifest } from './kustomize';

const KUBERNETES = join(__dirname, '..', '..', 'deploy', 'kubernetes');

/** What `kubectl kustomize` (kustomize itself, built into kubectl) renders, in the renderer's order and encoding. */
function kubectlKustomize(dir: string): Manifest[] {
  const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (run.error) throw new Error(`kubectl is needed to check the renderer against kustomize (${run.error.message})`);
  if (run.status !== 0) throw new Error(run.stderr);
  return parseAllDocuments(run.stdout).map((document) => {
    const manifest = document.toJS() as Manifest;
    // kustomize wraps long base64 values over lines, which a base64 decoder ignores.
    const data = manifest.data as Record<string, string> | undefined;
    if (manifest.kind === 'Secret' && data) manifest.data = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.replace(/\s/g, '')]));
    return manifest;
  });
}
const byId = (manifests: Manifest[]) => Object.fromEntries(manifests.map((m) => [`${m.kind}/${m.metadata.name}`, m]));

describe('deploy/kubernetes, rendered', () => {
  it.each(['base', 'overlays/example'])('%s: as kustomize renders it', (dir) => {
    expect(byId(renderKustomization(join(KUBERNETES, dir)))).toEqual(byId(kubectlKustomize(join(KUBERNETES, dir))));
  });
});

describe('renderKustomization', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    write('base/kustomization.yaml', 'resources: [app]\n');
    write('base/app/kustomization.yaml', 'resources: [deployment.yaml]\n');
    write(
      'base/app/deployment.yaml',
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: app}',
        'spec:',
        '  template:',
        '    spec:',
        '      containers:',
        '        - {name: app, image: "example/app", env: [{name: A, value: "1"}]}',
        '        - {name: side, image: "registry:5000/side:1.0"}',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: {name: app}',
      ].join('\n'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gathers resources from files with several documents and from nested kustomizations', () => {
    expect(renderKustomization(join(dir, 'base')).map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(['Deployment/app', 'Service/app']);
  });

  it('sets the namespace, the images, the patches and generated Secrets of an overlay', () => {
    write('overlay/secrets.env', '# a comment\n\nPASSWORD=p=w\nEMPTY=\n');
    write('overlay/secrets/config.json', '{"a": 1}\n');
    write(
      'overlay/kustomization.yaml',
      [
        'namespace: ns',
        'resources: [../base]',
        'images:',
        '  - {name: example/app, newName: registry.example.com/app, newTag: "2.0"}',
        '  - {name: "registry:5000/side", newTag: "1.1"}',
        'generatorOptions: {disableNameSuffixHash: true}',
        'secretGenerator:',
        '  - {name: app-secrets, envs: [secrets.env], literals: [TOKEN=t], files: [secrets/config.json, renamed.json=secrets/config.json]}',
        'patches:',
        '  - target: {kind: Deployment, name: app}',
        '    patch: |-',
        '      - {op: add, path: /spec/template/spec/containers/0/env/-, value: {name: B, value: "2"}}',
        '      - {op: replace, path: /spec/template/spec/containers/0/env/0/value, value: "3"}',
      ].join('\n'),
    );
    const rendered = renderKustomization(join(dir, 'overlay'));
    expect(byId(rendered)).toEqual(byId(kubectlKustomize(join(dir, 'overlay'))));
    const [deployment, service, secret] = rendered;
    const containers = (deployment.spec as { template: { spec: { containers: { image: string; env?: unknown[] }[] } } }).template.spec.containers;
    expect(containers.map((c) => c.image)).toEqual(['registry.example.com/app:2.0', 'registry:5000/side:1.1']);
    expect(containers[0].env).toEqual([
      { name: 'A', value: '3' },
      { name: 'B', value: '2' },
    ]);
    expect([deployment, service, secret].map((m) => m.metadata.namespace)).toEqual(['ns', 'ns', 'ns']);
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'app-secrets', namespace: 'ns' },
      type: 'Opaque',
      data: {
        PASSWORD: Buffer.from('p=w').toString('base64'),
        EMPTY: '',
        TOKEN: Buffer.from('t').toString('base64'),
        'config.json': Buffer.from('{"a": 1}\n').toString('base64'),
        'renamed.json': Buffer.from('{"a": 1}\n').toString('base64'),
      },
    });
  });

  it.each([
    ['a field it does not render', 'resources: [../base]\ncommonLabels: {a: b}\n', /commonLabels: not supported/],
    ['a strategic merge patch', 'resources: [../base]\npatches:\n  - target: {kind: Deployment, name: app}\n    patch: "spec: {replicas: 2}"\n', /JSON 6902/],
    ['a patch of nothing', 'resources: [../base]\npatches:\n  - target: {kind: Deployment, name: other}\n    patch: "[]"\n', /no Deployment other/],
    ['hashed generator names', 'secretGenerator:\n  - {name: s, literals: [A=b]}\n', /disableNameSuffixHash/],
    ['a resource twice', 'resources: [../base, ../base/app]\n', /Deployment\/app appears twice/],
  ])('refuses %s', (_what, kustomization, error) => {
    write('overlay/kustomization.yaml', kustomization);
    expect(() => renderKustomization(join(dir, 'overlay'))).toThrow(error);
  });
});

describe('parseEnvFile', () => {
  it('refuses a line that would make kustomize read its value from the environment', () => {
    expect(() => parseEnvFile('A=1\nHOME\n', 'x.env')).toThrow('x.env:2: expected KEY=value');
  });
});

describe('applyJsonPatch', () => {
  it('adds, replaces and removes, escaping / and ~ in names', () => {
    const document = { metadata: { annotations: { 'a/b': 'x', 'c~d': 'y' } }, list: [1, 2, 3] };
    applyJsonPatch(document, [
      { op: 'replace', path: '/metadata/annotations/a~1b', value: 'z' },
      { op: 'remove', path: '/metadata/annotations/c~0d' },
      { op: 'add', path: '/list/1', value: 9 },
      { op: 'remove', path: '/list/0' },
    ]);
    expect(document).toEqual({ metadata: { annotations: { 'a/b': 'z' } }, list: [9, 2, 3] });
  });

  it.each([
    ['replace', '/missing'],
    ['remove', '/list/3'],
    ['add', '/nowhere/x'],
  ] as const)('refuses to %s %s, which does not exist', (op, path) => {
    expect(() => applyJsonPatch({ list: [1, 2, 3] }, [{ op, path, value: 1 }])).toThrow(/does not exist|no index/);
  });
});
