import { readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** A Kubernetes object as a manifest holds it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** What `kustomize build` does for the kustomization fields deploy/kubernetes uses, and only those. */
interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  generatorOptions?: { disableNameSuffixHash?: boolean };
  secretGenerator?: { name: string; envs?: string[]; literals?: string[]; files?: string[]; type?: string }[];
  patches?: { target: { kind: string; name: string }; patch?: string; path?: string }[];
}

const FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'generatorOptions', 'secretGenerator', 'patches']);
const SECRET_FIELDS = new Set(['name', 'envs', 'literals', 'files', 'type']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass', 'StorageClass']);

/**
 * Renders a kustomization directory as `kubectl kustomize` would, offline and without the kustomize binary, for
 * the subset of kustomize that deploy/kubernetes uses: resources (files and directories), namespace, images,
 * secretGenerator (env files and literals, fixed names) and JSON 6902 patches. Anything else is refused with an
 * error, so the manifests cannot come to rely on a feature this renderer would silently ignore. kustomize.spec.ts
 * checks that it renders deploy/kubernetes exactly as `kubectl kustomize` does.
 */
export function renderKustomization(dir: string): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  const kustomization = parse(readFileSync(file, 'utf8')) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((field) => !FIELDS.has(field));
  if (unsupported.length > 0) throw new Error(`${file}: ${unsupported.join(', ')}: not supported by this renderer`);

  const manifests = (kustomization.resources ?? []).flatMap((entry) => {
    const path = resolve(dir, entry);
    return statSync(path).isDirectory() ? renderKustomization(path) : readManifests(path);
  });
  manifests.push(...generateSecrets(dir, kustomization, file));
  for (const { target, patch, path } of kustomization.patches ?? []) {
    const operations = parse(patch ?? readFileSync(resolve(dir, path ?? ''), 'utf8')) as unknown;
    if (!Array.isArray(operations)) throw new Error(`${file}: only JSON 6902 patches (a list of operations) are supported`);
    const matches = manifests.filter((m) => m.kind === target.kind && m.metadata.name === target.name);
    if (matches.length === 0) throw new Error(`${file}: no ${target.kind} ${target.name} to patch`);
    for (const manifest of matches) applyJsonPatch(manifest, operations as JsonPatchOperation[]);
  }
  for (const image of kustomization.images ?? []) setImage(manifests, image);
  if (kustomization.namespace !== undefined) {
    for (const manifest of manifests) {
      if (!CLUSTER_SCOPED.has(manifest.kind)) manifest.metadata.namespace = kustomization.namespace;
    }
  }
  refuseDuplicates(manifests, file);
  return manifests;
}

function readManifests(path: string): Manifest[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0].message}`);
    const manifest = document.toJS() as Manifest | null;
    return manifest === null ? [] : [manifest];
  });
}

/**
 * kustomize's env-file format: `KEY=value` lines, `#` comments and blank lines. A line without `=` would make
 * kustomize read the value from the environment of whoever runs it; that is refused here.
 */
export function parseEnvFile(text: string, path: string): [string, string][] {
  return text.split('\n').flatMap((line, index) => {
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) return [];
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw new Error(`${path}:${index + 1}: expected KEY=value`);
    return [[trimmed.slice(0, equals), trimmed.slice(equals + 1)] as [string, string]];
  });
}

/** A generator's `files` entry, `key=path` or `path` (its file name the key), as a key and the file's text. */
function fileEntry(dir: string, entry: string): [string, string] {
  const equals = entry.indexOf('=');
  const path = equals < 0 ? entry : entry.slice(equals + 1);
  return [equals < 0 ? basename(path) : entry.slice(0, equals), readFileSync(resolve(dir, path), 'utf8')];
}

function generateSecrets(dir: string, kustomization: Kustomization, file: string): Manifest[] {
  const generators = kustomization.secretGenerator ?? [];
  if (generators.length > 0 && kustomization.generatorOptions?.disableNameSuffixHash !== true) {
    // kustomize would add a content hash to each name and rewrite every reference; not reproduced here.
    throw new Error(`${file}: secretGenerator needs generatorOptions.disableNameSuffixHash: true`);
  }
  return generators.map((generator) => {
    const unsupported = Object.keys(generator).filter((field) => !SECRET_FIELDS.has(field));
    if (unsupported.length > 0) throw new Error(`${file}: secretGenerator ${generator.name}: ${unsupported.join(', ')}: not supported`);
    const pairs = [
      ...(generator.envs ?? []).flatMap((env) => parseEnvFile(readFileSync(resolve(dir, env), 'utf8'), resolve(dir, env))),
      ...(generator.literals ?? []).map((literal) => parseEnvFile(literal, `${file} literal`)[0]),
      ...(generator.files ?? []).map((entry) => fileEntry(dir, entry)),
    ];
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: generator.name },
      type: generator.type ?? 'Opaque',
      data: Object.fromEntries(pairs.map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    };
  });
}

export interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

/** RFC 6902 add, replace and remove, applied in place. */
export function applyJsonPatch(document: object, operations: JsonPatchOperation[]): void {
  for (const { op, path, value } of operations) {
    const tokens = path.split('/').slice(1).map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop();
    if (last === undefined) throw new Error(`patch path ${JSON.stringify(path)} names no field`);
    let parent: unknown = document;
    for (const token of tokens) {
      parent = (parent as Record<string, unknown> | undefined)?.[token];
      if (typeof parent !== 'object' || parent === null) throw new Error(`patch path ${path}: ${token} does not exist`);
    }
    if (Array.isArray(parent)) {
      const index = last === '-' && op === 'add' ? parent.length : Number(last);
      const bound = op === 'add' ? parent.length : parent.length - 1;
      if (!Number.isInteger(index) || index < 0 || index > bound) throw new Error(`patch path ${path}: no index ${last}`);
      parent.splice(index, op === 'add' ? 0 : 1, ...(op === 'remove' ? [] : [value]));
    } else {
      const object = parent as Record<string, unknown>;
      if (op !== 'add' && !(last in object)) throw new Error(`patch path ${path}: ${last} does not exist`);
      if (op === 'remove') delete object[last];
      else object[last] = value;
    }
  }
}

interface Container {
  image: string;
}

function setImage(manifests: Manifest[], image: NonNullable<Kustomization['images']>[number]): void {
  for (const manifest of manifests) {
    const pod = (manifest.spec as { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } } | undefined)
      ?.template?.spec;
    for (const container of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
      const [, name, tag] = /^(.*?)(?::([\w][\w.-]*))?(?:@.*)?$/.exec(container.image) ?? [];
      if (name !== image.name) continue;
      const reference = image.digest ? `@${image.digest}` : (image.newTag ?? tag) ? `:${image.newTag ?? tag}` : '';
      container.image = `${image.newName ?? name}${reference}`;
    }
  }
}

function refuseDuplicates(manifests: Manifest[], file: string): void {
  const seen = new Set<string>();
  for (const { kind, metadata } of manifests) {
    const id = `${kind}/${metadata.name}`;
    if (seen.has(id)) throw new Error(`${file}: ${id} appears twice`);
    seen.add(id);
  }
}
