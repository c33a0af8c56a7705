/**
 * The simulators' fault queue: a test asks for the next `count` calls of an operation (or of
 * any, `op: 'any'`) to fail in a given way, after letting `after` of them through. The kinds
 * every simulator knows are answered here (`slow` waits `delayMs`, 2 s by default, then lets
 * the call run; `drop` closes the connection); the platform renders its own answers (rate
 * limit, server error, expired token...) from its error bodies; any other kind is handed back
 * to the route (`drop_after_create`, `processing_failed`...).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface SimFault<Op extends string = string, Kind extends string = string> {
  op: Op;
  kind: Kind;
  count: number;
  delayMs?: number;
  /** Matching calls to let through before the fault applies (e.g. 1: the second publish). */
  after?: number;
}

export class FaultQueue<F extends SimFault> {
  private readonly faults: F[] = [];

  /** `answers`: the platform's answer for each kind it renders itself. */
  constructor(private readonly answers: Partial<Record<F['kind'], (reply: FastifyReply) => unknown>>) {}

  add(f: F): void {
    this.faults.push({ ...f });
  }

  /** The fault for this call, if any (spending one of its count). */
  take(op: F['op']): F | null {
    const i = this.faults.findIndex((f) => f.op === op || f.op === 'any');
    if (i < 0) return null;
    const f = this.faults[i];
    if (f.after && f.after > 0) { f.after--; return null; }
    if (--f.count <= 0) this.faults.splice(i, 1);
    return f;
  }

  /** Applies the fault for this call: 'handled' when answered, the fault when the route must act on it, else null. */
  async apply(op: F['op'], reply: FastifyReply, req: FastifyRequest): Promise<F | null | 'handled'> {
    const f = this.take(op);
    if (!f) return null;
    const answer = this.answers[f.kind as F['kind']];
    if (answer) { answer(reply); return 'handled'; }
    if (f.kind === 'slow') { await new Promise((r) => setTimeout(r, f.delayMs ?? 2000)); return null; }
    if (f.kind === 'drop') { req.raw.socket.destroy(); return 'handled'; }
    return f;
  }

  /** `POST /__sim/faults` with a fault as the JSON body, for tests that run the simulator in its own process. */
  route(app: FastifyInstance): void {
    app.post('/__sim/faults', async (req) => {
      this.faults.push(req.body as F);
      return { ok: true };
    });
  }
}

/**
 * A `drop_after_create` fault: the call did its work (the post exists) and the connection
 * closes before the answer. True when it was dropped (the route then returns the reply unsent).
 */
export function droppedAfterCreate(f: SimFault | null | undefined, req: FastifyRequest): boolean {
  if (f?.kind !== 'drop_after_create') return false;
  req.raw.socket.destroy();
  return true;
}
