import type { HttpProblem } from './problem';

/** FHIR R4 IssueType codes (http://hl7.org/fhir/R4/valueset-issue-type.html) for the statuses the API answers. */
const ISSUE_CODE: Record<number, string> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  406: 'not-supported',
  409: 'conflict',
  412: 'conflict',
  413: 'too-costly',
  415: 'not-supported',
  428: 'required',
  429: 'throttled',
  503: 'transient',
  504: 'timeout',
};

const issueCode = (status: number) => ISSUE_CODE[status] ?? (status >= 500 ? 'exception' : 'processing');

/**
 * A problem as the FHIR R4 OperationOutcome a FHIR client expects: one issue for
 * the problem, and one per bad field (its name as the issue's expression). The
 * body is the problem's own (bounded) text; the request id travels in the
 * diagnostics, as FHIR has no member for it.
 */
export function operationOutcome(problem: HttpProblem, requestId: string | undefined): Record<string, unknown> {
  const body = problem.body(requestId) as { title: string; detail: string; errors?: { field: string; message: string }[] };
  const code = issueCode(problem.status);
  const reference = requestId ? ` (request ${requestId})` : '';
  return {
    resourceType: 'OperationOutcome',
    issue: [
      { severity: 'error', code, details: { text: body.title }, diagnostics: `${body.detail}${reference}` },
      ...(body.errors ?? []).map((error) => ({ severity: 'error', code, diagnostics: error.message, expression: [error.field] })),
    ],
  };
}
