import type { ConversationInfo } from '../api/types.js';

export function totalCost(info: ConversationInfo): number {
  let cost = 0;
  for (const metrics of Object.values(info.stats?.usage_to_metrics ?? {})) cost += metrics.accumulated_cost ?? 0;
  return cost;
}

export function formatCost(cost: number): string {
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

export function formatDate(value: string | undefined): string {
  if (value === undefined) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

export function titleOf(info: ConversationInfo): string {
  return typeof info.title === 'string' && info.title !== '' ? info.title : `Conversation ${info.id.slice(0, 8)}`;
}
