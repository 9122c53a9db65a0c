// An on-disk cache of chat responses, for re-running a config against a paid model without
// paying twice. The key covers everything that shapes the answer — the model settings, the
// messages, the output limit and the repeat index — so repeats stay independent calls. A hit
// replays the original call's usage and latency (and is marked cached in the call log), so a
// cached re-run reports the numbers of the run that filled the cache. Keys never include secrets,
// and neither do entries: a reply is written through harness/files/output.ts like a record, so a
// server that echoes the key (or a bearer token) leaves [REDACTED] on disk. Temporary files that a
// killed writer left are swept when the cache is opened.
//
// Modes (`cache.mode`): `use` reads and fills; `replay` only reads — a miss is a CacheMissError,
// never a call, so a CI gate replaying last night's answers cannot spend; `refresh` never reads
// and overwrites; `off` is no cache at all (the runner makes none). Keys hold no paths: the same
// config run from another checkout (or a CI job that restored the folder) finds the same entries.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeOutput } from '../files/output.ts';
import { sweepStaleTemps, writeViaTemp } from '../files/tempFiles.ts';
import type { ChatMessage, ToolCall, ToolSpec, Usage } from '../types.ts';

export interface CachedChat {
  text: string;
  model: string;
  usage?: Usage;
  /** Tool calls the model made (native tool calling). */
  toolCalls?: ToolCall[];
  latencyMs: number;
}

/** A query embedding (or a batch of them) from a remote embedder, cached like a chat reply. */
export interface CachedEmbedding {
  /** The vectors as numbers (float32 values round-trip through JSON exactly). */
  vectors: number[][];
  inputTokens?: number;
  latencyMs: number;
}

export interface CacheKeyParts {
  /** Model settings without secrets (provider, model id, base URL, temperature, JSON mode). */
  model: unknown;
  messages: ChatMessage[];
  maxTokens: number;
  json: boolean;
  repeat: number;
  /** Tools offered and the tool choice, for calls that offer tools (absent otherwise). */
  tools?: ToolSpec[];
  toolChoice?: string;
}

export type CacheMode = 'use' | 'replay' | 'refresh' | 'off';

/** A call that `cache.mode: replay` could not answer from the cache: no request was made. */
export class CacheMissError extends Error {
  constructor(readonly task?: string) {
    super(`cache miss under cache.mode replay${task ? ` (task ${task})` : ''}: the call is not in the cache and replay never calls the model`);
    this.name = 'CacheMissError';
  }
}

export const isCacheMiss = (err: unknown): err is CacheMissError => err instanceof CacheMissError;

export class ResponseCache {
  hits = 0;
  misses = 0;
  /** Misses under replay (each failed a call without reaching the server). */
  replayMisses = 0;

  constructor(
    readonly dir: string,
    readonly mode: Exclude<CacheMode, 'off'> = 'use',
  ) {
    sweepStaleTemps(dir, 1);
  }

  /**
   * The cached reply for a call, as the mode wants it: under `refresh` never one (the call is made
   * and overwrites the entry); under `replay` a miss throws CacheMissError instead of letting the
   * call through.
   */
  lookup(key: string, task?: string): CachedChat | undefined {
    if (this.mode === 'refresh') {
      this.misses++;
      return undefined;
    }
    const hit = this.get(key);
    if (!hit && this.mode === 'replay') {
      this.replayMisses++;
      throw new CacheMissError(task);
    }
    return hit;
  }

  static key(parts: CacheKeyParts): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  /** The key of an embedding request: the embedder's cache key (model, server, size) and the texts. */
  static embedKey(embedderKey: string, texts: string[]): string {
    return createHash('sha256').update(JSON.stringify({ embedder: embedderKey, texts })).digest('hex');
  }

  /** `lookup` for an embedding request (same modes: replay throws on a miss). */
  lookupEmbedding(key: string, task?: string): CachedEmbedding | undefined {
    const hit = this.lookup(key, task) as unknown as CachedEmbedding | undefined;
    return hit && Array.isArray(hit.vectors) ? hit : undefined;
  }

  setEmbedding(key: string, value: CachedEmbedding): void {
    this.set(key, value as unknown as CachedChat);
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): CachedChat | undefined {
    try {
      const value = JSON.parse(readFileSync(this.path(key), 'utf8')) as CachedChat;
      this.hits++;
      return value;
    } catch {
      // Missing or unreadable (e.g. a half-written file from a killed run): a miss.
      this.misses++;
      return undefined;
    }
  }

  set(key: string, value: CachedChat): void {
    // Write then rename, so a concurrent reader never sees half a file.
    writeViaTemp(this.path(key), safeOutput(JSON.stringify(value), 'json'));
  }
}
