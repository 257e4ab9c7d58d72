import { readRawBody, type RawBodyErrors } from '../../http/body';
import { sha256Hex } from '../../lib/crypto';
import { DomainError } from '../../lib/errors';
import { parsePackageId, parseSignQuery, parseValidateQuery, requireXmlContentType, type VaasRequest } from '../../parsers/vaas.parser';
import { strEnum } from '../../lib/json-schema';
import { renderVaas, vaasHeaders } from '../../presenters/vaas.presenter';
import { vaasSchema } from '../../presenters/vaas.schema';
import type { Caller } from '../../services/auth.service';
import { fileResult, route, type RouteContext } from '../route-table';

/** The studio's refusals of a raw XML body (413 past the limit, 400 when it is cut off). */
const XML_BODY_ERRORS: RawBodyErrors = {
  tooLarge: (maxBytes) => new DomainError(413, 'payload_too_large', `The instance is larger than ${maxBytes} bytes.`, { max_bytes: maxBytes }),
  cutOff: (message) => new DomainError(400, 'invalid_request', message),
};

/** Validate (and sign): the content type and query first, then the body, then one charge per Idempotency-Key. */
const validate = (parse: (query: Record<string, unknown>) => VaasRequest) => async (ctx: RouteContext<Caller>) => {
  const { services, caller, req } = ctx;
  const request = parse(ctx.query);
  requireXmlContentType(req.headers['content-type']);
  const xml = await readRawBody(req, services.settings.cpu.thread.xml.maxBytes, XML_BODY_ERRORS);
  if (xml.length === 0) throw new DomainError(400, 'invalid_xml', 'The request body is empty: send the instance as raw XML.');
  return ctx.idempotently(
    () => ({ request, sha256: sha256Hex(xml) }),
    async () => {
      const view = await services.vaas.validate(caller, { ...request, xml });
      return { status: 200, headers: vaasHeaders(view), body: renderVaas(view) };
    },
  );
};

/** Validation as a service for the agent toolkit (`../shared/spec/clients.md`): raw XML in, JSON out. */
const xmlBody = { contentType: 'application/xml', schema: { type: 'string', description: 'The instance, raw XML (also text/xml).' } };
const answered = (what: string) => ({
  200: {
    description: `${what}; X-SDC cost headers in dollars (and -Credits), X-Package-Url with package=true. An invalid instance is a 200 with valid false.`,
    schema: vaasSchema,
  },
});

export const vaasRoutes = [
  route({
    method: 'post',
    path: '/api/v1/vaas/validate/',
    requirement: 'spend',
    charges: 'vaas',
    raw: true,
    idempotent: true,
    doc: {
      summary: 'Validate an instance against its published model (charged)',
      tag: 'Validation as a service',
      query: { mode: strEnum('strict', 'recover', 'report'), package: strEnum('true', 'false') },
      requestBody: xmlBody,
      responses: answered('The validation report'),
    },
    handle: validate(parseValidateQuery),
  }),
  route({
    method: 'post',
    path: '/api/v1/vaas/validate/sign/',
    requirement: 'spend',
    charges: 'vaas',
    raw: true,
    idempotent: true,
    doc: {
      summary: 'Validate and sign an instance (charged)',
      tag: 'Validation as a service',
      query: { recover: strEnum('true', 'false'), package: strEnum('true', 'false') },
      requestBody: xmlBody,
      responses: answered('The validation report with the signed instance'),
    },
    handle: validate(parseSignQuery),
  }),
  route({
    method: 'get',
    path: '/api/v1/vaas/packages/:id/',
    requirement: 'read',
    doc: {
      summary: 'A validation package (the same caller, until it expires)',
      tag: 'Validation as a service',
      responses: { 200: { description: 'The ZIP: instance, XSD, JSON, N-Triples, manifest.json.', contentType: 'application/zip' } },
    },
    handle: async ({ services, caller, params }) =>
      fileResult(await services.vaas.packageFile(caller, parsePackageId(params.id)), 'application/zip', 'attachment'),
  }),
];
