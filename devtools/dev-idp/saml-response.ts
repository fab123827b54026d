/**
 * A SAML 2.0 Response with one assertion signed by the development IdP's key (xml-crypto, RSA-SHA256, exclusive
 * canonicalization, the signature right after the assertion's Issuer as the schema wants). What a university IdP
 * sends: bearer subject confirmation naming the consumer URL and the request it answers, audience restriction,
 * a 5-minute validity window, the attributes of domain/single-sign-on.ts. The options that make it wrong (expired,
 * another audience, unsigned) exist for the tests.
 */
import { randomBytes } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { SAML_ATTRIBUTES } from '../../domain/single-sign-on';

export interface AssertedPerson {
  employeeId: string;
  email: string;
  firstName: string;
  lastName: string;
  middleInitial?: string | null;
  /** eduPersonAffiliation values, e.g. ['employee'] or ['student'] */
  affiliation: string[];
}

export interface ResponseOptions {
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  inResponseTo: string;
  person: AssertedPerson;
  privateKey: string;
  certificate: string;
  /** the moment the assertion is issued (default now) */
  issuedAt?: Date;
  validForMs?: number;
  /** tests: leave the assertion unsigned */
  unsigned?: boolean;
  /** tests: a fixed assertion id */
  assertionId?: string;
}

const xmlText = (value: string) => value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const newId = () => `_${randomBytes(20).toString('hex')}`;
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function attribute(name: string, values: string[]): string {
  if (!values.length) return '';
  return `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">` +
    values.map((v) => `<saml:AttributeValue xsi:type="xs:string">${xmlText(v)}</saml:AttributeValue>`).join('') +
    '</saml:Attribute>';
}

/** The Response XML, its assertion signed (unless `unsigned`). */
export function signedResponseXml(options: ResponseOptions): string {
  const issued = options.issuedAt ?? new Date();
  const notBefore = iso(new Date(issued.getTime() - 5_000));
  const notOnOrAfter = iso(new Date(issued.getTime() + (options.validForMs ?? 5 * 60_000)));
  const assertionId = options.assertionId ?? newId();
  const { person } = options;
  const issuer = `<saml:Issuer>${xmlText(options.idpEntityId)}</saml:Issuer>`;
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${assertionId}" Version="2.0" IssueInstant="${iso(issued)}">` +
    issuer +
    '<saml:Subject>' +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${xmlText(person.employeeId)}:${xmlText(person.email)}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
    `<saml:SubjectConfirmationData InResponseTo="${xmlText(options.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlText(options.acsUrl)}"/>` +
    '</saml:SubjectConfirmation></saml:Subject>' +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${xmlText(options.spEntityId)}</saml:Audience></saml:AudienceRestriction>` +
    '</saml:Conditions>' +
    `<saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="${newId()}">` +
    '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
    '</saml:AuthnStatement>' +
    '<saml:AttributeStatement>' +
    attribute(SAML_ATTRIBUTES.employeeId, [person.employeeId]) +
    attribute(SAML_ATTRIBUTES.email, [person.email]) +
    attribute(SAML_ATTRIBUTES.firstName, [person.firstName]) +
    attribute(SAML_ATTRIBUTES.lastName, [person.lastName]) +
    attribute(SAML_ATTRIBUTES.middleInitial, person.middleInitial ? [person.middleInitial] : []) +
    attribute(SAML_ATTRIBUTES.affiliation, person.affiliation) +
    '</saml:AttributeStatement>' +
    '</saml:Assertion>';
  const signedAssertion = options.unsigned ? assertion : signAssertion(assertion, options.privateKey, options.certificate);
  return '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
    `ID="${newId()}" Version="2.0" IssueInstant="${iso(issued)}" Destination="${xmlText(options.acsUrl)}" InResponseTo="${xmlText(options.inResponseTo)}">` +
    issuer +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    signedAssertion +
    '</samlp:Response>';
}

function signAssertion(assertionXml: string, privateKey: string, certificate: string): string {
  const signer = new SignedXml({
    privateKey,
    publicCert: certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(assertionXml, {
    prefix: 'ds',
    location: { reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signer.getSignedXml();
}

/** The Response as the SAMLResponse form field (base64). */
export const signedResponse = (options: ResponseOptions) => Buffer.from(signedResponseXml(options), 'utf8').toString('base64');
