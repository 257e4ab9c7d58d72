import { newId } from '../lib/ids';
import { asStudioError } from '../lib/cpu-errors';
import { DomainError } from '../lib/errors';
import type { Links } from '../lib/links';
import type { VaasRequest } from '../parsers/vaas.parser';
import type { VaasSignView, VaasView } from '../presenters/vaas.presenter';
import type { CpuPool } from '../workers/pool';
import {
  ThreadBatches,
  type VaasOnceAnswer,
  type VaasOnceTask,
  type VaasRenderTask,
  type VaasSignTask,
  type VaasValidateTask,
  type VaasValidation,
} from '../validation';
import { peekRootModel } from '../xml/root-peek';
import type { Caller } from './auth.service';
import type { Clock } from './clock';
import { currentClaim, replayOr, type LedgerService, type RequestCapture, type RequestCharge, type RequestHold } from '../money';
import type { SigningService } from './signing.service';
import { vaasPackageFiles, type VaasPackageFiles } from '../packages/vaas-package-zip';
import type { StoredVaasPackage, VaasPackages } from './vaas-packages';
import type { VaasModel, VaasSchemas } from './vaas-schemas';

export interface VaasPrices {
  /** VAAS_VALIDATION_CREDITS: every validation, valid or not. */
  validationCredits: number;
  /** VAAS_SIGNATURE_CREDITS: every signature made (only valid instances are signed). */
  signatureCredits: number;
  /** The XML body limit (the worker threads' XML_MAX_BYTES): larger is 413. */
  maxXmlBytes: number;
}

export interface VaasInput extends VaasRequest {
  xml: Uint8Array | string;
}

/** How a request pays: a fixed price without an Idempotency-Key is charged on admission (one ledger row, refunded
 * on a failure the caller is not charged for); otherwise the whole price is held and what was earned is captured
 * after the work (the capture writes the Idempotency-Key's outcome with the money). */
type Payment = { hold: RequestHold; charge?: undefined } | { charge: RequestCharge; hold?: undefined };

/** A validated request, paid or still held: what it earned is captured next when held. */
interface Held {
  payment: Payment;
  model: VaasModel;
  result: VaasValidation;
  sign: VaasSignView | null;
  stored: StoredVaasPackage | null;
}

/**
 * Validation as a service: the instance's root names a published model (or one of the caller's own); its stored
 * schema validates it in the worker pool (strict, or with EV correction), a valid one is signed on request, and
 * the files are packaged on request. Money: everything that refuses (400 malformed, 404 model, 413, 402, 403
 * key limit) happens before any work: the whole price (validation, plus the signature when asked) is held before
 * the CPU work, what was earned is captured after it (an invalid instance asked to be signed pays the validation
 * only) and the hold is released on any failure, so concurrent requests cannot outspend the wallet. A request
 * whose price is fixed up front (no signature) and that carries no Idempotency-Key is charged on admission
 * instead, refused exactly as the hold would be, and refunded on any failure the hold would have released: the
 * same answers and the same money for one ledger row instead of two. A request is charged only when it answers
 * 200, or when its CPU budget stopped it (its validation: flooding the pool is never free).
 */
export class VaasService {
  private readonly batches: ThreadBatches;

  constructor(
    private readonly pool: CpuPool,
    private readonly schemas: VaasSchemas,
    private readonly ledger: LedgerService,
    private readonly signing: SigningService,
    private readonly packages: VaasPackages,
    private readonly links: Links,
    private readonly clock: Clock,
    private readonly prices: VaasPrices,
  ) {
    this.batches = new ThreadBatches(pool);
  }

  /** The most a request can cost (validation, plus the signature when it signs). */
  price(request: Pick<VaasRequest, 'sign'>): number {
    return this.prices.validationCredits + (request.sign ? this.prices.signatureCredits : 0);
  }

  /** A retry of a committed request with its Idempotency-Key answers the recorded view (the capture writes it). */
  validate(caller: Caller, input: VaasInput): Promise<VaasView> {
    return replayOr(() => this.validateOnce(caller, input));
  }

  private async validateOnce(caller: Caller, input: VaasInput): Promise<VaasView> {
    const size = typeof input.xml === 'string' ? Buffer.byteLength(input.xml) : input.xml.byteLength;
    if (size > this.prices.maxXmlBytes) {
      throw new DomainError(413, 'payload_too_large', `The instance is larger than ${this.prices.maxXmlBytes} bytes.`, {
        max_bytes: this.prices.maxXmlBytes,
      });
    }
    const work = (await this.once(caller, input)) ?? (await this.twice(caller, input));
    const { payment, model, result, sign, stored } = work;
    const dmCtId = model.dmCtId;
    const charged = this.prices.validationCredits + (sign?.signed ? this.prices.signatureCredits : 0);
    const reason = `vaas ${sign?.signed ? 'validate+sign' : 'validate'}: dm-${dmCtId}`;
    const view = (paid: RequestCapture): VaasView => ({
      valid: result.valid,
      mode: input.mode,
      schema: { ctId: dmCtId, title: model.title },
      structuralErrors: result.structuralErrors,
      semanticErrors: result.semanticErrors,
      recovered: result.recoveredXml !== null,
      recoveredXml: result.recoveredXml,
      errors: result.errors,
      corrections: result.corrections,
      sign,
      packageUrl: stored?.url ?? null,
      packageExpiresAt: stored?.expiresAt.toISOString() ?? null,
      chargedCredits: paid.capturedCredits,
      balanceRemainingCredits: paid.balanceCredits,
    });
    const outcome = (paid: RequestCapture) => ({
      charged: paid.capturedCredits,
      ledgerEntryId: paid.ledgerEntryId,
      resource: { type: 'validation', id: `dm-${dmCtId}` },
      result: view(paid),
    });
    if (payment.charge) {
      const paid = payment.charge;
      return view({
        ledgerEntryId: paid.ledgerEntryId,
        balanceCredits: paid.balanceCredits,
        capturedCredits: paid.chargedCredits,
        alreadyClosed: false,
      });
    }
    try {
      return view(await this.ledger.requests.capture(payment.hold, charged, reason, outcome));
    } catch (error) {
      await this.ledger.requests.release(payment.hold, `vaas: dm-${dmCtId} could not be charged`);
      if (stored) await this.packages.discard(stored.id);
      throw error;
    }
  }

  /** A request that failed after its admission: one stopped by its CPU budget is charged its validation (flooding
   * the pool is never free: a charge on admission is kept, a hold captures it), any other failure is not charged. */
  private async failed(payment: Payment, dmCtId: string, error: unknown): Promise<void> {
    if (error instanceof DomainError && error.code === 'processing_budget_exceeded') {
      if (payment.charge) return;
      const reason = `vaas validate (stopped by the CPU budget): dm-${dmCtId}`;
      const charged = await this.ledger.requests.capture(payment.hold, this.prices.validationCredits, reason).catch(() => null);
      if (charged) return;
    }
    await this.uncharged(payment, `vaas: dm-${dmCtId} failed`);
  }

  /** A request that is not charged after all: its hold released, or its charge refunded. */
  private async uncharged(payment: Payment, reason: string): Promise<void> {
    if (payment.charge) await this.ledger.requests.refund(payment.charge, reason);
    else await this.ledger.requests.release(payment.hold, reason);
  }

  /**
   * The usual request in one pool trip: the model is guessed from the root start tag on the event loop
   * (peekRootModel), looked up and held, and one thread task parses, checks the root and validates against that
   * model's schema by its key (the documents only when the thread asks). Null when the guess cannot be used
   * (no guess, no such model, a refused hold, or the thread found another root): `twice` then answers exactly as
   * it always has (a malformed instance is 400 before 404 or 402).
   */
  private async once(caller: Caller, input: VaasInput): Promise<Held | null> {
    const guess = peekRootModel(input.xml);
    const found = guess === null ? null : await this.schemas.model(guess, caller.user.id).catch(() => null);
    if (!found) return null;
    const dmCtId = found.ct_id;
    const payment = await this.admit(caller, input, dmCtId).catch(() => null);
    if (!payment) return null;
    // A schema that cannot be assembled is 422 only after a malformed instance's 400, as `twice` answers it.
    const model = await this.schemas.schemaOf(found).catch(() => null);
    if (!model) {
      await this.uncharged(payment, `vaas: dm-${dmCtId} failed`);
      return null;
    }
    let answer: VaasOnceAnswer;
    try {
      const renders = input.package && !input.sign;
      const task: VaasOnceTask = {
        xml: input.xml,
        expected: { dmCtId },
        schema: { key: model.schema.key },
        recover: input.mode === 'recover',
        countEvs: input.sign,
        keepText: input.sign,
        render: renders ? { instanceId: `i-${newId()}`, modelXsd: model.xsd, title: model.title } : null,
      };
      const lane = caller.key ? `key:${caller.key.id}` : `session:${caller.session.id}`;
      const bytes = typeof input.xml === 'string' ? input.xml.length : input.xml.byteLength;
      answer = await this.batched(lane, task, bytes);
      if ('needSchema' in answer) answer = await this.batched(lane, { ...task, schema: model.schema }, bytes);
    } catch (error) {
      await this.failed(payment, dmCtId, error);
      throw error;
    }
    if (!('done' in answer)) {
      await this.uncharged(payment, `vaas: dm-${dmCtId} is not the instance's model`);
      return null;
    }
    const { decoded, packaged, ...result } = answer.done;
    const xml = decoded ?? (typeof input.xml === 'string' ? input.xml : null);
    return this.finished(payment, input, { model, result, xml }, packaged);
  }

  /** The instance's root and model first (one pool trip), then the payment, then the validation (another). */
  private async twice(caller: Caller, input: VaasInput): Promise<Held> {
    const { dmCtId, xml } = await this.run<Uint8Array | string, { dmCtId: string; xml: string }>('vaasRoot', input.xml);
    const found = await this.schemas.model(dmCtId, caller.user.id);
    const payment = await this.admit(caller, input, dmCtId);
    let model: VaasModel;
    let result: VaasValidation;
    try {
      model = await this.schemas.schemaOf(found);
      const task: VaasValidateTask = { xml, schema: model.schema, recover: input.mode === 'recover', countEvs: input.sign };
      result = await this.validated(task);
    } catch (error) {
      await this.failed(payment, dmCtId, error);
      throw error;
    }
    return this.finished(payment, input, { model, result, xml }, null);
  }

  /** 403 (key) or 402 (funds) before any work. A request without a signature costs its validation whatever it
   * finds, so without an Idempotency-Key it is charged now; with one, or when it may sign, its whole price is held. */
  private async admit(caller: Caller, input: VaasInput, dmCtId: string): Promise<Payment> {
    const request = { userId: caller.user.id, amount: this.price(input), apiKeyId: caller.key?.id ?? null };
    if (!input.sign && !currentClaim()) return { charge: await this.ledger.requests.charge({ ...request, reason: `vaas validate: dm-${dmCtId}` }) };
    return { hold: await this.ledger.requests.hold({ ...request, reason: `vaas: dm-${dmCtId}` }) };
  }

  /** After validation, paid or still held: sign a valid instance on request, store the package (released on failure).
   * `xml` is the instance's text when signing or packaging here needs it; `packaged` the package its thread made. */
  private async finished(
    payment: Payment,
    input: VaasInput,
    done: { model: VaasModel; result: VaasValidation; xml: string | null },
    packaged: Uint8Array | null,
  ): Promise<Held> {
    const { model, result } = done;
    try {
      const instance = () => {
        const xml = result.recoveredXml ?? done.xml;
        if (xml === null) throw new Error('the instance text was not kept');
        return xml;
      };
      const sign = input.sign ? await this.signed(instance(), model, result) : null;
      const made = packaged && Buffer.from(packaged.buffer, packaged.byteOffset, packaged.byteLength);
      const zip = input.package ? (made ?? (await this.zip(model, sign?.signedXml ?? instance()))) : null;
      const userId = payment.charge ? payment.charge.userId : payment.hold.userId;
      const stored = zip ? await this.packages.save(userId, model.dmCtId, zip) : null;
      return { payment, model, result, sign, stored };
    } catch (error) {
      await this.failed(payment, model.dmCtId, error);
      throw error;
    }
  }

  /** The schema's documents go to a thread only when it has not compiled them yet (once per thread and schema). */
  private async validated(task: VaasValidateTask): Promise<VaasValidation> {
    try {
      return await this.run<VaasValidateTask, VaasValidation>('vaasValidate', { ...task, schema: { key: task.schema.key } });
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'schema_not_loaded')) throw error;
      return this.run<VaasValidateTask, VaasValidation>('vaasValidate', task);
    }
  }

  /** A package the caller made, until it expires. */
  packageFile(caller: Caller, id: string): Promise<{ fileName: string; content: Buffer }> {
    return this.packages.get(id, caller.user.id);
  }

  private async signed(xml: string, model: VaasModel, result: VaasValidation): Promise<VaasSignView> {
    if (!result.valid) return { signed: false, signedXml: null, signature: null, verification: null };
    const signer = await this.signing.currentSigner();
    const properties = {
      issuer: new URL(this.links.base).host,
      timestamp: this.clock.now().toISOString(),
      schemaCtId: model.dmCtId,
      evCount: result.evCount,
    };
    const signedXml = await this.run<VaasSignTask, string>(
      'vaasSign',
      { xml, kid: signer.kid, privateKeyPem: signer.privateKeyPem, properties },
      'sign',
    );
    const made = { signedXml, signature: { algorithm: 'Ed25519', ...properties, keyId: signer.kid } };
    const keys = this.links.signingKeys();
    return {
      signed: true,
      signedXml: made.signedXml,
      signature: made.signature,
      verification: {
        publicKeyUrl: this.links.signingKey(made.signature.keyId),
        verifyCommand: `npm run cli -- vaas verify dm-${model.dmCtId}.signed.xml --keys ${keys}`,
      },
    };
  }

  /** The (recovered or signed) instance, the model's XSD, the instance's JSON and N-Triples, and the manifest. */
  private async zip(model: VaasModel, xml: string): Promise<Buffer> {
    const render: VaasRenderTask = { xml, dmCtId: model.dmCtId, instanceId: `i-${newId()}`, modelXsd: model.xsd };
    const { json, ntriples } = await this.run<VaasRenderTask, { json: string; ntriples: string }>('vaasRender', render);
    return this.zipInPool(vaasPackageFiles({ dmCtId: model.dmCtId, title: model.title, xml, xsd: model.xsd, json, ntriples }));
  }

  /** The package's hashes and deflate run in the pool: megabytes of them would stall the event loop. */
  private async zipInPool(pkg: VaasPackageFiles): Promise<Buffer> {
    try {
      const zip = await this.pool.run<VaasPackageFiles, Uint8Array>('package', 'vaasPackageZip', pkg);
      return Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
    } catch (error) {
      throw asStudioError(error);
    }
  }

  /** One vaasOnce task, batched with the caller's others under load (ThreadBatches). */
  private async batched(lane: string, task: VaasOnceTask, bytes: number): Promise<VaasOnceAnswer> {
    try {
      return await this.batches.run<VaasOnceTask, VaasOnceAnswer>(lane, 'vaasOnce', task, bytes);
    } catch (error) {
      throw asStudioError(error);
    }
  }

  private async run<I, O>(name: string, input: I, module: 'validation' | 'sign' = 'validation'): Promise<O> {
    try {
      return await this.pool.run<I, O>(module, name, input);
    } catch (error) {
      throw asStudioError(error);
    }
  }
}
