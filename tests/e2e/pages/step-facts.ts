import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What every step of every chapter shows at its moment (a paused step): `step-facts.json`, read
 * also by the native test `tests/it/step_facts.rs`, which checks the same facts on the simulation's
 * snapshot and the stage's model at both Kubernetes profiles.
 */

export interface Fact {
  node?: string;
  exists?: boolean;
  status?: string;
  ready?: string;
  taints?: string[];
  noTaints?: string[];
  kubelet?: string;
  running?: boolean;
  pod?: string;
  on?: string;
  stage?: boolean;
  pdb?: string;
  allowed?: number;
  zone?: string;
  state?: string;
  notReady?: boolean;
  noExecute?: boolean;
}

export interface StepFacts {
  step: number;
  /** The Node the inspector shows at the step. */
  inspector?: string;
  /** A fleet step: master disruption mode on or off. */
  master?: boolean;
  facts: Fact[];
}

const table = JSON.parse(fs.readFileSync(path.join(__dirname, 'step-facts.json'), 'utf8')) as {
  chapters: Record<string, StepFacts[]>;
};

/** The facts of a chapter's steps, in order. */
export function stepFacts(chapter: string): StepFacts[] {
  return table.chapters[chapter];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The stage's accessible name for a Node's card, as a node fact says it (the same in both
 * languages: `Node node-1: NotReady; Taints: node.kubernetes.io/unreachable:NoSchedule, …`).
 */
export function nodeCardName(f: Fact): RegExp {
  const status = f.status ? escape(f.status) : '[^;]+';
  const taints = (f.taints ?? []).map((t) => `(?=.*${escape(t)}(,|$))`).join('');
  const none = (f.noTaints ?? []).map((t) => `(?!.*${escape(t)}(,|$))`).join('');
  return new RegExp(`^Node ${escape(f.node!)}: ${status}; ${taints}${none}`);
}

/** Any Node card of `node` on the stage. */
export function anyNodeCard(node: string): RegExp {
  return new RegExp(`^Node ${escape(node)}: `);
}
