import type { PositionCheck } from '@libs/cursor';

/** [start in epoch ms, id]: the keyset position of the lists ordered by start (blocks, appointments). */
export const isStartAndId: PositionCheck<[number, string]> = (position): position is [number, string] =>
  Array.isArray(position) && position.length === 2 && Number.isFinite(position[0]) && typeof position[1] === 'string';
