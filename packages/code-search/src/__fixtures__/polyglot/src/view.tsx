import type { Gadget } from './gadget';
export function GadgetView(props: { item: Gadget }) {
  return <div title="Gadget">{props.item.size}</div>;
}
