// Gadget appears in this comment.
export interface Gadget {
  size: number;
}
export function buildGadget(size: number): Gadget {
  const label = 'Gadget in a string';
  return { size: label.length + size };
}
export const gadgetCount = 3;
