// One request over node:http with the path and headers exactly as written: fetch would
// normalise the path and refuses to set `Host`.
import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers, setHost: !('host' in headers) });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const json = String(res.headers['content-type']).includes('json') && text;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          body: json ? JSON.parse(text) : text,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
