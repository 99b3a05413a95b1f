/** The chapters, as links name them, with their number in the navigation and their steps. */
export const CHAPTERS = [
  { n: 1, id: 'registration', steps: 6 },
  { n: 2, id: 'node-failure', steps: 6 },
  { n: 3, id: 'kubelet-restart', steps: 4 },
  { n: 4, id: 'maintenance', steps: 7 },
] as const;
