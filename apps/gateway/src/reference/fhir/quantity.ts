const NUMBER = String.raw`(\d+(?:\.\d+)?)`;

/** "300 mg" → {value: 300, unit: "mg"}; anything else (ratios, several ingredients) → undefined. */
export function simpleQuantity(text: string): { value: number; unit: string } | undefined {
  const match = new RegExp(String.raw`^\s*${NUMBER}\s*([a-zA-Zµμ%]+)\s*$`).exec(text);
  return match?.[1] && match[2] ? { value: Number(match[1]), unit: match[2] } : undefined;
}

/** "3.5-5.1" → low and high; "<200" → high; ">60" → low; anything else → undefined. */
export function numericRange(text: string): { low?: number; high?: number } | undefined {
  const between = new RegExp(String.raw`^\s*${NUMBER}\s*[-–]\s*${NUMBER}\s*$`).exec(text);
  if (between) return { low: Number(between[1]), high: Number(between[2]) };
  const below = new RegExp(String.raw`^\s*(?:<|<=|≤)\s*${NUMBER}\s*$`).exec(text);
  if (below) return { high: Number(below[1]) };
  const above = new RegExp(String.raw`^\s*(?:>|>=|≥)\s*${NUMBER}\s*$`).exec(text);
  if (above) return { low: Number(above[1]) };
  return undefined;
}
