/**
 * The office's digital signature on every PDF the portal issues (PAdES baseline B: a CMS signature with the
 * ETSI.CAdES.detached sub-filter, the signer's certificate bound by the ESS signing-certificate-v2 attribute, the
 * signing time in the signature dictionary rather than in the signed attributes). Any PDF reader shows the letter
 * signed by the office's certificate, and one changed byte breaks the signature.
 *
 * Cost (bench/letters.bench.ts): the placeholder is appended to Chromium's bytes as an incremental update
 * (@signpdf/placeholder-plain: no parse of the whole document), and the CMS is built here with node-forge's ASN.1
 * writer around ONE native RSA signature (node:crypto), with the P12 read once at start. @signpdf/signer-p12
 * decrypts the P12 and signs in JavaScript on every letter, several times the cost, and adds a signing time to the
 * signed attributes, which PAdES baseline B does not allow.
 */
import { createHash, createPrivateKey, sign as signBytes, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import signpdfModule from '@signpdf/signpdf';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';

const { asn1, pki } = forge;
const signpdf = ((signpdfModule as unknown as { default?: typeof signpdfModule }).default ?? signpdfModule);

/** Room for the CMS in the placeholder (hex doubles it): a 4096-bit key and a chain of three certificates fit. */
const SIGNATURE_LENGTH = 12_288;
const OID = {
  data: pki.oids.data,
  signedData: pki.oids.signedData,
  sha256: pki.oids.sha256,
  rsaEncryption: pki.oids.rsaEncryption,
  contentType: pki.oids.contentType,
  messageDigest: pki.oids.messageDigest,
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
};

export interface LetterSignerIdentity {
  /** the P12's bytes (DER) and its password */
  p12: Buffer;
  password: string;
  /** the name the signature dictionary gives (the office) */
  signerName: string;
  contactInfo: string;
  location: string;
}

const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const oid = (value: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());
const int = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, bytes);
const octets = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes);
const nul = () => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '');
const algorithm = (id: string) => seq([oid(id), nul()]);
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const binary = (bytes: Buffer) => bytes.toString('binary');

/** The P12's key (as a native key) and its certificates, the signer's first. RSA keys (what node-forge reads). */
export function readP12(p12: Buffer, password: string): { key: KeyObject; certificate: forge.pki.Certificate; chain: forge.pki.Certificate[] } {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(asn1.fromDer(binary(p12)), false, password);
  } catch (error) {
    throw new Error(`The letter-signing P12 could not be read (wrong password, or not a PKCS#12 file): ${(error as Error).message}`, { cause: error });
  }
  const keyBag = [
    ...(parsed.getBags({ bagType: pki.oids.pkcs8ShroudedKeyBag })[pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(parsed.getBags({ bagType: pki.oids.keyBag })[pki.oids.keyBag] ?? []),
  ].find((bag) => bag.key);
  if (!keyBag?.key) throw new Error('The letter-signing P12 holds no RSA private key');
  const privateKey = keyBag.key as forge.pki.rsa.PrivateKey;
  const certificates = (parsed.getBags({ bagType: pki.oids.certBag })[pki.oids.certBag] ?? []).map((bag) => bag.cert!).filter(Boolean);
  const certificate = certificates.find((cert) => {
    const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
    return publicKey.n?.compareTo(privateKey.n) === 0 && publicKey.e?.compareTo(privateKey.e) === 0;
  });
  if (!certificate) throw new Error('The letter-signing P12 holds no certificate for its private key');
  const key = createPrivateKey(pki.privateKeyToPem(privateKey));
  return { key, certificate, chain: [certificate, ...certificates.filter((cert) => cert !== certificate)] };
}

/** A CMS SignedData (detached) over `content`, PAdES baseline B's signed attributes, one native RSA signature. */
class CadesSigner extends Signer {
  private readonly certificates: forge.asn1.Asn1[];
  private readonly signerId: forge.asn1.Asn1;
  private readonly signingCertificate: forge.asn1.Asn1;

  constructor(private readonly key: KeyObject, certificate: forge.pki.Certificate, chain: forge.pki.Certificate[]) {
    super();
    this.certificates = chain.map((cert) => pki.certificateToAsn1(cert));
    const certificateDer = der(pki.certificateToAsn1(certificate));
    this.signerId = seq([pki.distinguishedNameToAsn1(certificate.issuer), int(forge.util.hexToBytes(certificate.serialNumber))]);
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with the default hash (SHA-256)
    this.signingCertificate = seq([seq([seq([octets(binary(createHash('sha256').update(certificateDer).digest()))])])]);
  }

  override async sign(content: Buffer): Promise<Buffer> {
    const digest = createHash('sha256').update(content).digest();
    const attributes = [
      attribute(OID.contentType, oid(OID.data)),
      attribute(OID.messageDigest, octets(binary(digest))),
      attribute(OID.signingCertificateV2, this.signingCertificate),
    ];
    // The signature covers the attributes DER-encoded as a SET (RFC 5652 §5.4); DER sorts a SET OF by encoding.
    const sorted = attributes.map((a) => ({ a, bytes: der(a) })).sort((x, y) => Buffer.compare(x.bytes, y.bytes)).map((x) => x.a);
    const signature = signBytes('sha256', der(set(sorted)), this.key);
    const signerInfo = seq([
      int(String.fromCharCode(1)),
      this.signerId,
      algorithm(OID.sha256),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, sorted),
      algorithm(OID.rsaEncryption),
      octets(binary(signature)),
    ]);
    const signedData = seq([
      int(String.fromCharCode(1)),
      set([algorithm(OID.sha256)]),
      seq([oid(OID.data)]),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, this.certificates),
      set([signerInfo]),
    ]);
    return der(seq([oid(OID.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
  }
}

export interface LetterSigner {
  /** The signed PDF: Chromium's bytes with the signature appended as an incremental update. */
  sign(pdf: Buffer, reason: string): Promise<Buffer>;
  /** the certificate's subject common name, as PDF readers show the signer */
  readonly signedBy: string;
}

export function createLetterSigner(identity: LetterSignerIdentity): LetterSigner {
  const { key, certificate, chain } = readP12(identity.p12, identity.password);
  const cms = new CadesSigner(key, certificate, chain);
  const signedBy = String(certificate.subject.getField('CN')?.value ?? identity.signerName);
  return {
    signedBy,
    async sign(pdf, reason) {
      const withPlaceholder = plainAddPlaceholder({
        pdfBuffer: pdf, reason, name: identity.signerName, contactInfo: identity.contactInfo, location: identity.location,
        signatureLength: SIGNATURE_LENGTH, subFilter: SUBFILTER_ETSI_CADES_DETACHED, signingTime: new Date(),
      });
      return signpdf.sign(withPlaceholder, cms);
    },
  };
}
