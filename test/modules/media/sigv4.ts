// A check of an AWS Signature V4 presigned URL against the headers a client would send, as S3
// does it: s3rver (the S3-compatible server of these tests) does not check signed headers, so
// the tests check that a different Content-Type or Content-Length breaks the signature here.
import { createHash, createHmac } from 'node:crypto';

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function presignedSignatureHolds(url: string, method: string, headers: Record<string, string>, secretAccessKey: string): boolean {
  const parsed = new URL(url);
  const query = [...parsed.searchParams.entries()].filter(([name]) => name !== 'X-Amz-Signature');
  const canonicalQuery = query
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const signedHeaders = parsed.searchParams.get('X-Amz-SignedHeaders') ?? '';
  const lower = Object.fromEntries(Object.entries({ host: parsed.host, ...headers }).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${lower[name] ?? ''}\n`)
    .join('');
  const canonicalRequest = [method, parsed.pathname, canonicalQuery, canonicalHeaders, signedHeaders, 'UNSIGNED-PAYLOAD'].join('\n');
  const credential = parsed.searchParams.get('X-Amz-Credential') ?? '';
  const [, date = '', region = '', service = ''] = credential.split('/');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', parsed.searchParams.get('X-Amz-Date'), scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
  return hmac(key, stringToSign).toString('hex') === parsed.searchParams.get('X-Amz-Signature');
}
