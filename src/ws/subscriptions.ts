// Live subscriptions. Identical queries of one shop in one encoding share a Topic: one uWS topic, one
// recompute per change, one encoded frame published to all of them. After events are applied to a
// shop, each of its topics is recomputed at most once per PUSH_INTERVAL_MS (leading edge, plus a
// trailing run so the last change is never lost) and published only when the list changed. Due
// recomputes run REFRESHES_PER_TURN per turn of the event loop (TurnQueue): requests that arrive
// meanwhile, other shops' too, are served between them.
// Topics are bounded per connection (maxSubscriptions) and per shop (maxTopicsPerShop).
import { queryKey, type RecommendationQuery } from '../api/recommendation-query.js';
import { AppError } from '../errors.js';
import type { Answer, Answers } from '../app/answers.js';
import type { Frame } from './codec.js';
import type { Connection, Subscribed } from './connection.js';
import type { Ref } from './protocol.js';
import { listSignature, recommendationFrame } from './recommendation-frame.js';
import { TurnQueue } from './turn-queue.js';

/** At most one push per subscription per this many ms (the stream's promise: docs/api.md). */
export const PUSH_INTERVAL_MS = 1000;
/** Recomputes run back to back before the event loop serves what arrived meanwhile. */
export const REFRESHES_PER_TURN = 4;

/** A connection as the registry subscribes it to topics. */
export type Subscriber = Connection<Topic>;

export interface Topic extends Subscribed {
  readonly shopId: string;
  readonly key: string;
  readonly query: RecommendationQuery;
  readonly members: Set<Subscriber>;
  /** listSignature of the list last sent. */
  signature: string;
  /** The last published frame, for members that were behind when it went out; undefined before any. */
  frame: Frame | undefined;
  /** performance.now() of the last recompute. */
  lastRunAt: number;
  timer: NodeJS.Timeout | undefined;
  /** Waiting in the registry's queue for its recompute (it will see every change until it runs). */
  queued?: boolean;
  /** Fires at the next edge of a rule's validity window of the shop (what is in force may change there). */
  edgeTimer?: NodeJS.Timeout;
}

/** Longest setTimeout Node takes; an edge further away re-arms when this fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RegistryDeps {
  answers: Answers;
  /** Epoch ms for the engine (tests may pin it). */
  clock: () => number;
  maxSubscriptions: number;
  /** Topics one shop may have; a subscription that would add one more is refused (the widget then asks over HTTP). */
  maxTopicsPerShop: number;
  publish: (topic: string, frame: Frame, binary: boolean) => void;
}

export interface RegistryStats {
  topics: number;
  /** Frames published (each to every member of a topic at once). */
  pushes: number;
  /** Pushes a member missed because it was behind; it got the latest list when it caught up. */
  skipped: number;
}

export class SubscriptionRegistry {
  readonly #topics = new Map<string, Topic>();
  readonly #byShop = new Map<string, Set<Topic>>();
  #nextId = 0;
  #pushes = 0;
  #skipped = 0;
  readonly #due = new TurnQueue<Topic>(REFRESHES_PER_TURN, (topic) => {
    topic.queued = false;
    this.#refresh(topic);
  });

  constructor(readonly deps: RegistryDeps) {}

  stats(): RegistryStats {
    return { topics: this.#topics.size, pushes: this.#pushes, skipped: this.#skipped };
  }

  /** Joins (or re-joins: idempotent) the query's topic; returns the reply frame with the list right now. */
  /** Subscribes the connection; the first frame to send, and the subscription's id. */
  subscribe(conn: Subscriber, query: RecommendationQuery, binary: boolean, ref: Ref | undefined): { frame: Frame; sub: string } {
    // widgetId too: an experiment on one placement must not answer another's subscribers.
    const key = `${conn.shopId}\u0000${binary ? 'b' : 't'}\u0000${query.widgetId ?? ''}\u0000${queryKey(query)}`;
    let topic = this.#topics.get(key);
    if ((topic === undefined || !conn.subs.has(topic.id)) && conn.subs.size >= this.deps.maxSubscriptions) {
      throw new AppError('too_many_subscriptions', `a connection holds at most ${this.deps.maxSubscriptions} subscriptions; unsubscribe one first`);
    }
    if (topic === undefined && (this.#byShop.get(conn.shopId)?.size ?? 0) >= this.deps.maxTopicsPerShop) {
      throw new AppError('too_many_subscriptions', `the shop has ${this.deps.maxTopicsPerShop} distinct live queries, its most; ask over HTTP (GET /api/recommendations) instead`);
    }
    const answer = this.#compute(conn.shopId, query);
    if (topic === undefined) topic = this.#create(key, conn.shopId, query, binary, answer);
    if (!conn.subs.has(topic.id)) {
      topic.members.add(conn);
      conn.join(topic);
    }
    return { frame: recommendationFrame(topic.id, this.deps.answers.json(answer), binary, ref), sub: topic.id };
  }

  /** False when the connection has no such subscription. */
  unsubscribe(conn: Subscriber, sub: string): boolean {
    const topic = conn.subs.get(sub);
    if (topic === undefined) return false;
    conn.leave(topic);
    conn.tokenExpiry.delete(sub);
    this.#removeMember(topic, conn);
    return true;
  }

  /** The connection closed: forget its memberships (its socket is gone, no uWS calls). */
  drop(conn: Subscriber): void {
    for (const topic of conn.subs.values()) this.#removeMember(topic, conn);
    conn.subs.clear();
    conn.missed.clear();
  }

  /** Events were applied to the shop: recompute its topics, throttled. */
  changed(shopId: string): void {
    const topics = this.#byShop.get(shopId);
    if (topics === undefined) return;
    for (const topic of topics) this.#schedule(topic);
  }

  close(): void {
    this.#due.clear();
    for (const topic of this.#topics.values()) {
      clearTimeout(topic.timer);
      clearTimeout(topic.edgeTimer);
    }
    this.#topics.clear();
    this.#byShop.clear();
  }

  #compute(shopId: string, query: RecommendationQuery): Answer {
    return this.deps.answers.answer(shopId, query, this.deps.clock());
  }

  #create(key: string, shopId: string, query: RecommendationQuery, binary: boolean, answer: Answer): Topic {
    const topic: Topic = {
      id: `s${(++this.#nextId).toString(36)}`,
      shopId,
      key,
      query,
      binary,
      members: new Set(),
      signature: listSignature(answer.result),
      frame: undefined,
      lastRunAt: -Infinity,
      timer: undefined,
    };
    this.#topics.set(key, topic);
    let shopTopics = this.#byShop.get(shopId);
    if (shopTopics === undefined) this.#byShop.set(shopId, (shopTopics = new Set()));
    shopTopics.add(topic);
    this.#armEdge(topic);
    return topic;
  }

  #removeMember(topic: Topic, conn: Subscriber): void {
    topic.members.delete(conn);
    if (topic.members.size > 0) return;
    clearTimeout(topic.timer);
    clearTimeout(topic.edgeTimer);
    this.#topics.delete(topic.key);
    const shopTopics = this.#byShop.get(topic.shopId);
    shopTopics?.delete(topic);
    if (shopTopics?.size === 0) this.#byShop.delete(topic.shopId);
  }

  #schedule(topic: Topic): void {
    // A run already scheduled (or queued) will see this change too: that is the trailing edge.
    if (topic.timer !== undefined || topic.queued === true) return;
    const wait = Math.max(0, topic.lastRunAt + PUSH_INTERVAL_MS - performance.now());
    // Even with no wait, a timer: the other commits of this event-loop turn join the same recompute.
    topic.timer = setTimeout(() => {
      topic.timer = undefined;
      topic.queued = true;
      this.#due.push(topic);
    }, wait);
  }

  /**
   * A rule may start or end at a time no change marks: the topic is recomputed at the shop's next
   * window edge (none: no timer), then armed again for the one after.
   */
  #armEdge(topic: Topic): void {
    clearTimeout(topic.edgeTimer);
    topic.edgeTimer = undefined;
    const now = this.deps.clock();
    const edge = this.deps.answers.engines.face(topic.shopId).nextRuleEdge(now);
    if (edge === Infinity) return;
    topic.edgeTimer = setTimeout(() => {
      topic.edgeTimer = undefined;
      this.#schedule(topic);
    }, Math.min(edge - now + 1, MAX_TIMER_MS));
  }

  #refresh(topic: Topic): void {
    if (topic.members.size === 0) return;
    topic.lastRunAt = performance.now();
    this.#armEdge(topic);
    let answer: Answer;
    try {
      answer = this.#compute(topic.shopId, topic.query);
    } catch (error) {
      // The catalog no longer has an attribute the subscription's filter names: its members keep
      // the last list (a new subscribe gets the 400); anything else is a bug and surfaces.
      if (error instanceof AppError && (error.code === 'invalid_filter' || error.code === 'invalid_diversity')) return;
      throw error;
    }
    const signature = listSignature(answer.result);
    if (signature === topic.signature) return;
    topic.signature = signature;
    // One recId per push: every member of the topic was shown the same answer.
    topic.frame = recommendationFrame(topic.id, this.deps.answers.json(answer), topic.binary);
    const now = performance.now();
    for (const conn of topic.members) {
      if (!conn.behind && conn.policy.shouldSkip(conn.buffered)) conn.fallBehind(now);
      if (conn.behind) {
        conn.missed.add(topic);
        this.#skipped++;
      }
    }
    this.deps.publish(topic.id, topic.frame, topic.binary);
    this.#pushes++;
  }
}
