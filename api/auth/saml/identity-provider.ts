/**
 * The identity provider the API trusts, from the settings (config/app-config.ts SamlSettings): its signing
 * certificates, its redirect entry point and its entity id. From metadata (SAML_IDP_METADATA_URL, re-read every hour
 * so a certificate rollover is picked up) or from SAML_IDP_ENTRY_POINT + SAML_IDP_CERT.
 */
import { readFileSync, existsSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import type { SamlSettings } from '../../../config/app-config';

export interface IdentityProvider {
  entityId: string | null;
  entryPoint: string;
  certificates: string[];
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const METADATA_TTL_MS = 60 * 60_000;

/** Thrown when the IdP cannot be reached or its metadata makes no sense. */
export class IdentityProviderUnavailable extends Error {
  override name = 'IdentityProviderUnavailable';
}

/** A base64 body or PEM text → PEM certificates (several when the text holds several). */
function pemCertificates(text: string): string[] {
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (pems) return pems;
  const body = text.replace(/\s+/g, '');
  if (!body) return [];
  return [`-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`];
}

/** Reads the IdP's entity id, signing certificates and HTTP-Redirect sign-on location from its metadata. */
function parseIdentityProviderMetadata(xml: string): IdentityProvider {
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => {} } }).parseFromString(xml, 'text/xml');
  const entity = doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const idp = doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!entity || !idp) throw new IdentityProviderUnavailable('the metadata has no EntityDescriptor with an IDPSSODescriptor');
  const certificates: string[] = [];
  for (const key of Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const cert of Array.from(key.getElementsByTagNameNS(DS, 'X509Certificate'))) {
      certificates.push(...pemCertificates(cert.textContent ?? ''));
    }
  }
  const entryPoint = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'))
    .find((service) => service.getAttribute('Binding') === REDIRECT_BINDING)?.getAttribute('Location');
  if (!certificates.length) throw new IdentityProviderUnavailable('the metadata names no signing certificate');
  if (!entryPoint) throw new IdentityProviderUnavailable('the metadata names no HTTP-Redirect SingleSignOnService');
  return { entityId: entity.getAttribute('entityID'), entryPoint, certificates };
}

/** Resolves the configured IdP; null when single sign-on is not configured. Metadata is cached for an hour. */
export class IdentityProviderSource {
  private cached: { idp: IdentityProvider; until: number } | null = null;

  constructor(private readonly settings: SamlSettings) {}

  get configured(): boolean {
    return Boolean(this.settings.idpMetadataUrl || (this.settings.idpEntryPoint && this.settings.idpCert));
  }

  async resolve(): Promise<IdentityProvider | null> {
    const { idpMetadataUrl, idpEntryPoint, idpCert, idpEntityId } = this.settings;
    if (!idpMetadataUrl) {
      if (!idpEntryPoint || !idpCert) return null;
      // A value that names an existing file is read (a mounted secret); otherwise it is the certificate itself.
      const text = !idpCert.includes('-----BEGIN') && existsSync(idpCert) ? readFileSync(idpCert, 'utf8') : idpCert;
      return { entityId: idpEntityId, entryPoint: idpEntryPoint, certificates: pemCertificates(text) };
    }
    if (this.cached && this.cached.until > Date.now()) return this.cached.idp;
    let xml: string;
    try {
      const response = await fetch(idpMetadataUrl, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      xml = await response.text();
    } catch (error) {
      if (this.cached) return this.cached.idp; // a stale copy beats refusing every sign-in while the IdP blinks
      throw new IdentityProviderUnavailable(`the IdP metadata at ${idpMetadataUrl} could not be read: ${(error as Error).message}`);
    }
    const parsed = parseIdentityProviderMetadata(xml);
    // Metadata of another entity than the one configured is not this IdP's: its certificates vouch for nobody here.
    if (idpEntityId && parsed.entityId !== idpEntityId) {
      throw new IdentityProviderUnavailable(`the metadata at ${idpMetadataUrl} is for ${parsed.entityId ?? '(no entityID)'}, not SAML_IDP_ENTITY_ID ${idpEntityId}`);
    }
    const idp = { ...parsed, entityId: idpEntityId ?? parsed.entityId };
    this.cached = { idp, until: Date.now() + METADATA_TTL_MS };
    return idp;
  }
}
