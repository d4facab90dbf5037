import { join } from 'node:path';
import ts from 'typescript';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import type { Manifest } from './kustomize';

/**
 * The kinds deploy/kubernetes uses, each with its model from kubernetes-models (the Kubernetes OpenAPI schemas,
 * compiled). A manifest of another kind has no schema here and fails the test until its model is added.
 */
const MODELS = [Deployment, HorizontalPodAutoscaler, Ingress, NetworkPolicy, PodDisruptionBudget, Secret, Service];

const modelOf = (manifest: Manifest) =>
  MODELS.find((model) => model.apiVersion === manifest.apiVersion && model.kind === manifest.kind);

/** What the Kubernetes schema finds wrong with a manifest: types, formats, required fields. */
export function schemaErrors(manifest: Manifest): string[] {
  const Model = modelOf(manifest);
  if (!Model) return [`no schema for ${manifest.apiVersion} ${manifest.kind}: add its model to MODELS`];
  try {
    new Model(manifest as never).validate();
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/** kubernetes-models' TypeScript interface of every kind in MODELS, resolved once by the TypeScript checker. */
function interfaces(): { checker: ts.TypeChecker; typeOf: Map<string, ts.Type> } {
  const kinds = MODELS.map((model) => `${model.apiVersion}/${model.kind}`);
  const file = join(__dirname, '__kinds__.ts');
  const source = kinds.map((kind, i) => `export type K${i} = import('kubernetes-models/${kind}').I${kind.split('/').pop()};`).join('\n');
  const options: ts.CompilerOptions = { noEmit: true, strict: true, types: [], lib: ['lib.es5.d.ts'], moduleResolution: ts.ModuleResolutionKind.Node10 };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, ...rest) => (name === file ? ts.createSourceFile(name, source, ts.ScriptTarget.ES2022) : getSourceFile(name, ...rest));
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const aliases = program.getSourceFile(file)?.statements.filter(ts.isTypeAliasDeclaration) ?? [];
  return { checker, typeOf: new Map(kinds.map((kind, i) => [kind, checker.getTypeAtLocation(aliases[i].name)])) };
}
let resolved: ReturnType<typeof interfaces> | undefined;

/**
 * The fields of a manifest that its kind does not have (a misspelt `readinessProbes`, a field at the wrong level).
 * The compiled schemas accept unknown fields, as the OpenAPI documents allow them, while `kubectl apply` refuses
 * them; kubernetes-models' TypeScript interfaces list every field, so the manifest is walked against its kind's
 * interface with the TypeScript checker.
 */
export function unknownFields(manifest: Manifest): string[] {
  resolved ??= interfaces();
  const { checker, typeOf } = resolved;
  const walk = (value: unknown, declared: ts.Type, path: string, found: string[]): void => {
    if (typeof value !== 'object' || value === null) return;
    const type = checker.getNonNullableType(declared);
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (Array.isArray(value)) {
      const element = checker.getIndexTypeOfType(type, ts.IndexKind.Number);
      value.forEach((item, i) => element && walk(item, element, `${path}[${i}]`, found));
      return;
    }
    const byName = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    for (const [key, child] of Object.entries(value)) {
      const property = checker.getPropertyOfType(type, key);
      const childType = property ? checker.getTypeOfSymbol(property) : byName;
      if (childType) walk(child, childType, `${path}.${key}`, found);
      else found.push(`${path}.${key}`);
    }
  };
  const type = typeOf.get(`${manifest.apiVersion}/${manifest.kind}`);
  if (!type || type.flags & ts.TypeFlags.Any) return [`no TypeScript interface for ${manifest.apiVersion} ${manifest.kind}`];
  const found: string[] = [];
  walk(manifest, type, manifest.kind, found);
  return found;
}
