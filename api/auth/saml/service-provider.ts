/**
 * The portal as a SAML service provider (spec 2 §7.2 /saml/{product}/login) on @node-saml/node-saml:
 * AuthnRequests by the HTTP-Redirect binding, answers at the assertion consumer (HTTP-POST binding), metadata.
 *
 * An answer is accepted only when: the assertion is signed by one of the IdP's certificates (wantAssertionsSigned; the
 * envelope may be unsigned, as most IdPs send it); it answers a request this portal made in the last 10 minutes,
 * once (InResponseTo, remembered in PostgreSQL); its Issuer is the IdP; its audience is our entity id; a bearer
 * SubjectConfirmation names our consumer URL as Recipient; NotBefore/NotOnOrAfter hold (60 s clock skew); its id was
 * never accepted before; it carries the attributes of domain/single-sign-on.ts.
 */
import { inflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type Profile } from '@node-saml/node-saml';
import type { AppConfig } from '../../../config/app-config';
import { PRODUCT_NAME } from '../../../domain';
import { identityFromAttributes, type SsoErrorCode, type SsoIdentity } from '../../../domain/single-sign-on';
import { IdentityProviderSource, IdentityProviderUnavailable, type IdentityProvider } from './identity-provider';
import type { SamlMessageStore } from './saml-message-store';

/** The routes of single sign-on, under the product name (spec 1 §2: the login page links to /saml/{product}/login). */
export const SAML_PATHS = {
  login: `/saml/${PRODUCT_NAME}/login`,
  acs: `/saml/${PRODUCT_NAME}/acs`,
  /** Where the consumer URL hands over when the IdP's cross-site POST carried no binding cookie. */
  complete: `/saml/${PRODUCT_NAME}/complete`,
  metadata: `/saml/${PRODUCT_NAME}/metadata`,
} as const;

/** How long the IdP may take to answer a request (the person signs in there meanwhile). */
export const REQUEST_LIFETIME_MS = 10 * 60_000;
const CLOCK_SKEW_MS = 60_000;

/** Our entity id and consumer URL, from PUBLIC_URL (what the IdP must be told, and what assertions must name). */
export function serviceProviderUrls(config: Pick<AppConfig, 'publicUrl' | 'saml'>) {
  const base = config.publicUrl.replace(/\/+$/, '');
  return { entityId: config.saml.spEntityId ?? `${base}${SAML_PATHS.metadata}`, acsUrl: `${base}${SAML_PATHS.acs}` };
}

/** A refused sign-in: `code` reaches the browser (domain SSO_ERRORS), `detail` only the log. */
export class SsoRefused extends Error {
  override name = 'SsoRefused';
  constructor(readonly code: SsoErrorCode, readonly detail: string) {
    super(`${code}: ${detail}`);
  }
}

/** node-saml's refusals, by what the person should hear. */
function classify(error: Error): SsoErrorCode {
  const message = error.message;
  if (/InResponseTo/i.test(message)) return 'replayed';
  if (/expired|not yet valid|subject confirmation/i.test(message)) return 'expired';
  if (/audience/i.test(message)) return 'audience';
  if (/signature|signed|assertion/i.test(message)) return 'signature';
  return 'failed';
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: XmlNode | undefined, name: string) => ((node?.[name] ?? []) as XmlNode[]);

export class ServiceProvider {
  constructor(
    private readonly config: AppConfig,
    private readonly store: SamlMessageStore,
    private readonly idps: IdentityProviderSource = new IdentityProviderSource(config.saml),
  ) {}

  get configured() {
    return this.idps.configured;
  }

  private async identityProvider(): Promise<IdentityProvider> {
    let idp: IdentityProvider | null;
    try {
      idp = await this.idps.resolve();
    } catch (error) {
      if (error instanceof IdentityProviderUnavailable) throw new SsoRefused('providerUnavailable', error.message);
      throw error;
    }
    if (!idp) throw new SsoRefused('notConfigured', 'no SAML_IDP_METADATA_URL, nor SAML_IDP_ENTRY_POINT with SAML_IDP_CERT');
    // Every assertion's issuer is checked: an IdP whose entity id nobody knows is not used at all.
    if (!idp.entityId) throw new SsoRefused('providerUnavailable', 'the IdP has no entity id: set SAML_IDP_ENTITY_ID (the entityID of its metadata)');
    return idp;
  }

  private saml(idp: IdentityProvider): SAML {
    const { entityId, acsUrl } = serviceProviderUrls(this.config);
    return new SAML({
      issuer: entityId,
      audience: entityId,
      callbackUrl: acsUrl,
      entryPoint: idp.entryPoint,
      idpCert: idp.certificates,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
      cacheProvider: this.store.requestCache(REQUEST_LIFETIME_MS),
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      identifierFormat: null,
      // The university decides how people authenticate (password, MFA): we ask for no particular context.
      disableRequestedAuthnContext: true,
    });
  }

  /**
   * The IdP's sign-on URL carrying a fresh AuthnRequest (its id is remembered for the answer), and that id, which the
   * route binds to the browser (api/auth/saml/browser-binding.ts).
   */
  async loginUrl(): Promise<{ url: string; requestId: string }> {
    const idp = await this.identityProvider();
    const url = await this.saml(idp).getAuthorizeUrlAsync('', undefined, {});
    const request = new URL(url).searchParams.get('SAMLRequest') ?? '';
    const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
    const requestId = /\bID="([^"]+)"/.exec(xml)?.[1];
    if (!requestId) throw new Error('the AuthnRequest has no ID');
    return { url, requestId };
  }

  /** Our SP metadata for the IdP's administrators. */
  metadata(): string {
    const { entityId, acsUrl } = serviceProviderUrls(this.config);
    return generateServiceProviderMetadata({ issuer: entityId, callbackUrl: acsUrl, wantAssertionsSigned: true, identifierFormat: null });
  }

  /** Validates a posted SAMLResponse; the identity it vouches for and the request it answers, or SsoRefused. */
  async consume(samlResponse: string | undefined): Promise<{ identity: SsoIdentity; inResponseTo: string }> {
    if (!samlResponse) throw new SsoRefused('failed', 'no SAMLResponse in the POST');
    const idp = await this.identityProvider();
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml(idp).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw new SsoRefused(classify(error as Error), (error as Error).message);
    }
    if (!profile) throw new SsoRefused('failed', 'the answer carries no assertion');
    if (profile.issuer !== idp.entityId) {
      throw new SsoRefused('signature', `assertion issued by ${profile.issuer}, expected ${idp.entityId}`);
    }
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
    this.checkRecipient(assertion);
    const assertionId = assertion?.$?.ID;
    if (!assertionId) throw new SsoRefused('signature', 'the assertion has no ID');
    if (!(await this.store.claimAssertion(profile.issuer, assertionId, this.expiryOf(assertion)))) {
      throw new SsoRefused('replayed', `assertion ${assertionId} was accepted before`);
    }
    const mapped = identityFromAttributes((profile.attributes ?? {}) as Record<string, unknown>);
    if (!mapped.identity) throw new SsoRefused('attributes', `attribute ${mapped.missing} is missing or unusable`);
    // node-saml checked the Response's InResponseTo against the requests we made (ValidateInResponseTo.always).
    const inResponseTo = /<(?:[\w-]+:)?Response\b[^>]*\bInResponseTo="([^"]+)"/.exec(profile.getSamlResponseXml?.() ?? '')?.[1];
    if (!inResponseTo) throw new SsoRefused('replayed', 'the answer names no request');
    return { identity: mapped.identity, inResponseTo };
  }

  /** node-saml checks times and InResponseTo of the subject confirmation, not its Recipient: we do. */
  private checkRecipient(assertion: XmlNode | undefined) {
    const { acsUrl } = serviceProviderUrls(this.config);
    const recipients = children(assertion, 'Subject').flatMap((subject) => children(subject, 'SubjectConfirmation'))
      .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'))
      .map((data) => data.$?.Recipient);
    if (!recipients.includes(acsUrl)) {
      throw new SsoRefused('audience', `Recipient ${recipients.join(', ') || '(none)'} is not ${acsUrl}`);
    }
  }

  /** The latest moment the assertion could still be accepted: its id is remembered until then. */
  private expiryOf(assertion: XmlNode | undefined): Date {
    const limits = [
      ...children(assertion, 'Conditions').map((c) => c.$?.NotOnOrAfter),
      ...children(assertion, 'Subject').flatMap((s) => children(s, 'SubjectConfirmation'))
        .flatMap((c) => children(c, 'SubjectConfirmationData')).map((d) => d.$?.NotOnOrAfter),
    ].map((value) => (value ? Date.parse(value) : NaN)).filter((ms) => Number.isFinite(ms));
    const latest = limits.length ? Math.max(...limits) : Date.now() + REQUEST_LIFETIME_MS;
    return new Date(latest + CLOCK_SKEW_MS);
  }
}
