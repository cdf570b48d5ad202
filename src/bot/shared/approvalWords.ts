/**
 * Which words say who decides a request: one approver decides; of several, any one of them settles
 * the stage (`any`), or each of them must approve (`all`). "Adele Vance and Siobhán O'Connor will
 * decide" read as if both had to, when either was enough.
 */
export function approvalWords(approvers: number, mode: 'any' | 'all'): 'One' | 'Any' | 'All' {
  if (approvers <= 1) return 'One';
  return mode === 'all' ? 'All' : 'Any';
}
