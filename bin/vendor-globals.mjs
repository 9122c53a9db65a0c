// What the openai SDK bundled in dist/vendor/http.cjs finds under the global names Headers,
// FormData and globalThis.ReadableStream (bin/bundle.mjs injects these exports in their place).
//
// Why: Node defines its fetch classes (Headers, FormData, Request, Response) as lazy globals, and
// the first touch of any of them loads Node's whole fetch implementation: ~25 ms, which a run
// paid at its first request, in the middle of its start, although treebench never uses Node's
// fetch (harness/models/providers/pooledFetch.ts sends through undici's request API). The SDK
// builds a Headers object for every request and tests a JSON body with `instanceof FormData`
// and `instanceof ReadableStream`. So:
//  - Headers is undici's own class (the one Node's fetch uses), bundled: ~1 ms to load;
//  - FormData and ReadableStream stand for the globals and only touch them when an object might
//    be one (its Symbol.toStringTag names the class), or when the SDK builds one or reads a
//    static (file uploads and streams, which treebench does not send);
//  - each of them also recognises instances of Node's own class: a Headers object made with the
//    global class is a Headers to the SDK, as it was.
import { Headers as UndiciHeaders } from 'undici/lib/web/fetch/headers.js';

const tagOf = (v) => (v !== null && (typeof v === 'object' || typeof v === 'function') ? Object.prototype.toString.call(v).slice(8, -1) : '');

/**
 * A stand-in for the global class `name`: `instanceof`, `new` and statics as the global's, the
 * global touched only when needed. With `own`, instances are made from `own` instead.
 */
function lazyGlobal(name, own) {
  const global = () => globalThis[name];
  const isOne = (v) => (own !== undefined && v instanceof own) || (tagOf(v) === name && v instanceof global());
  return new Proxy(own ?? function () {}, {
    get: (_target, key) => (key === Symbol.hasInstance ? isOne : Reflect.get(own ?? global(), key)),
    construct: (_target, args) => Reflect.construct(own ?? global(), args),
  });
}

export const vendorHeaders = lazyGlobal('Headers', UndiciHeaders);
export const vendorFormData = lazyGlobal('FormData');
export const vendorReadableStream = lazyGlobal('ReadableStream');
