import type { Request } from 'express';
import { CODE_SYSTEMS, isCodeSystem, isValueSetName, VALUE_SETS, type CodeSystem, type ValueSetName } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle, type FhirResource } from './fhir/bundle';
import { lookupParameters, validationParameters } from './fhir/parameters';
import { codeSystemOf, codeSystemResource, valueSetOf, valueSetResource } from './fhir/terminology';
import { expansionValueSet } from './fhir/value-set-expansion';
import { sendReferenceFhir } from './reference-response';
import * as op from './terminology-operations';

const VALUE_SET_NAMES = Object.keys(VALUE_SETS) as ValueSetName[];

function knownSystem(url: string, field: string): CodeSystem {
  const system = codeSystemOf(url);
  if (!system) throw HttpProblem.invalidParameter(field, 'is not a code system this server knows (GET /api/v1/CodeSystem lists them)');
  return system;
}

function knownValueSet(url: string): ValueSetName {
  const name = valueSetOf(url);
  if (!name) throw HttpProblem.invalidParameter('url', 'is not a value set this server knows (GET /api/v1/ValueSet lists them)');
  return name;
}

/** The resources whose URL is `url` (all of them without it): a FHIR search by canonical URL. */
const withUrl = (resources: FhirResource[], url: string | undefined) => resources.filter((r) => url === undefined || r.url === url);

/** The terminology operations (docs/REFERENCE.md, "FHIR terminology"): CodeSystem and ValueSet resources, $lookup, $expand, $validate-code. */
export function terminologyRoutes(upstreams: Upstreams): Route[] {
  const concepts = async (system: CodeSystem, code: string, upstream: UpstreamCall) =>
    (await upstreams.catalogue.call((client) => client.lookupCode, { system, code }, upstream)).concepts;
  const bundle = (req: Request, resources: FhirResource[]) => searchsetBundle(req, resources, undefined);
  return [
    route(op.listCodeSystems, ({ query }, { req, res }) => {
      sendReferenceFhir(res, bundle(req, withUrl(CODE_SYSTEMS.map(codeSystemResource), query.url)));
    }),
    route(op.getCodeSystem, ({ path }, { res }) => {
      if (!isCodeSystem(path.id)) throw HttpProblem.notFound('no code system has that id');
      sendReferenceFhir(res, codeSystemResource(path.id));
    }),
    route(op.lookupCodeSystemCode, async ({ query }, { res, upstream }) => {
      const system = knownSystem(query.system, 'system');
      const found = await concepts(system, query.code, upstream);
      if (found.length === 0) throw HttpProblem.notFound(`no concept has the ${system} code given`);
      sendReferenceFhir(res, lookupParameters(codeSystemResource(system).name as string, found));
    }),
    route(op.validateCodeSystemCode, async ({ query }, { res, upstream }) => {
      const system = knownSystem(query.url, 'url');
      sendReferenceFhir(res, validationParameters(await concepts(system, query.code, upstream), query.display, `the code system ${query.url}`));
    }),
    route(op.listValueSets, ({ query }, { req, res }) => {
      sendReferenceFhir(res, bundle(req, withUrl(VALUE_SET_NAMES.map(valueSetResource), query.url)));
    }),
    route(op.getValueSet, ({ path }, { res }) => {
      if (!isValueSetName(path.id)) throw HttpProblem.notFound('no value set has that id');
      sendReferenceFhir(res, valueSetResource(path.id));
    }),
    route(op.expandValueSet, async ({ query }, { res, upstream }) => {
      const name = knownValueSet(query.url);
      const request = { valueSet: name, filter: query.filter ?? '', offset: query.offset, count: query.count };
      const page = await upstreams.catalogue.call((client) => client.expandValueSet, request, upstream);
      sendReferenceFhir(res, expansionValueSet(name, { filter: query.filter, offset: query.offset, count: query.count }, page));
    }),
    route(op.validateValueSetCode, async ({ query }, { res, upstream }) => {
      const name = knownValueSet(query.url);
      const system = knownSystem(query.system, 'system');
      const { type, systems } = VALUE_SETS[name];
      // A code of another system is not in the value set; of its systems, it is when it names a concept of its type.
      const found = (systems as readonly CodeSystem[]).includes(system) ? await concepts(system, query.code, upstream) : [];
      sendReferenceFhir(res, validationParameters(found.filter((concept) => concept.type === type), query.display, `the value set ${query.url}`));
    }),
  ];
}
