/** Draws a machine as a Mermaid state diagram, straight from its state nodes, so the picture cannot drift. */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

function idOf(node: AnyStateNode): string {
  return node.id.replace(/[^a-zA-Z0-9]/g, '_');
}

function eventName(definition: AnyTransitionDefinition): string {
  const type = definition.eventType;
  if (type === '') return 'always';
  if (type.startsWith('xstate.done.actor.')) return `done ${type.slice('xstate.done.actor.'.length)}`;
  if (type.startsWith('xstate.error.actor.')) return `error ${type.slice('xstate.error.actor.'.length)}`;
  if (type.startsWith('xstate.after.')) return `after ${type.split('.')[2]}`;
  return type;
}

function eventLabel(definition: AnyTransitionDefinition): string {
  const label = eventName(definition);
  const guard = definition.guard as { type?: string } | string | undefined;
  const guardName = typeof guard === 'string' ? guard : guard?.type;
  return guardName ? `${label} [${guardName}]` : label;
}

function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

/** Children to draw: all of them, or none below `depth` levels under the machine's root. */
function childrenOf(node: AnyStateNode, depth: number): AnyStateNode[] {
  return node.path.length < depth ? (Object.values(node.states) as AnyStateNode[]) : [];
}

function drawNode(node: AnyStateNode, indent: string, lines: string[], depth = Infinity): void {
  const children = childrenOf(node, depth);
  if (children.length === 0) {
    lines.push(`${indent}state "${node.key}" as ${idOf(node)}`);
    return;
  }
  lines.push(`${indent}state "${node.key}" as ${idOf(node)} {`);
  children.forEach((child, index) => {
    if (node.type === 'parallel' && index > 0) lines.push(`${indent}  --`);
    drawNode(child, `${indent}  `, lines, depth);
  });
  if (node.type !== 'parallel' && node.initial?.target?.[0]) {
    lines.push(`${indent}  [*] --> ${idOf(node.initial.target[0] as AnyStateNode)}`);
  }
  lines.push(`${indent}}`);
}

function drawTransitions(node: AnyStateNode, lines: string[]): void {
  for (const definition of transitionsOf(node)) {
    for (const target of (definition.target ?? []) as AnyStateNode[]) {
      lines.push(`  ${idOf(node)} --> ${idOf(target)} : ${eventLabel(definition)}`);
    }
  }
  for (const child of Object.values(node.states) as AnyStateNode[]) drawTransitions(child, lines);
}

function drawStates(root: AnyStateNode, lines: string[], depth = Infinity): void {
  if (root.type === 'parallel') {
    // Mermaid draws parallel regions only inside a composite state, separated by `--`.
    drawNode(root, '  ', lines, depth);
  } else {
    for (const child of Object.values(root.states) as AnyStateNode[]) drawNode(child, '  ', lines, depth);
    if (root.initial?.target?.[0]) lines.push(`  [*] --> ${idOf(root.initial.target[0] as AnyStateNode)}`);
  }
}

/** Every state and every transition, each with its event and guard: the full reference (docs/machines.md). */
export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  drawStates(machine.root, lines);
  drawTransitions(machine.root, lines);
  return lines.join('\n');
}

/**
 * The same machine at a glance (the README): the top states of each region (of the machine, or of each of its
 * parallel regions), deeper ones drawn as their ancestor; one arrow per pair of states carrying the names of its
 * events, no guards, no arrow within one drawn state.
 */
export function toMermaidOverview(machine: AnyStateMachine): string {
  const depth = machine.root.type === 'parallel' ? 2 : 1;
  const lines = ['stateDiagram-v2'];
  drawStates(machine.root, lines, depth);
  const shown = (node: AnyStateNode): AnyStateNode => {
    let drawn = node;
    while (drawn.path.length > depth && drawn.parent) drawn = drawn.parent;
    return drawn;
  };
  const arrows = new Map<string, Set<string>>();
  const collect = (node: AnyStateNode): void => {
    for (const definition of transitionsOf(node)) {
      for (const target of (definition.target ?? []) as AnyStateNode[]) {
        const [from, to] = [shown(node), shown(target)];
        if (from === to) continue;
        const arrow = `${idOf(from)} --> ${idOf(to)}`;
        arrows.set(arrow, (arrows.get(arrow) ?? new Set()).add(eventName(definition)));
      }
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) collect(child);
  };
  collect(machine.root);
  for (const [arrow, events] of arrows) lines.push(`  ${arrow} : ${[...events].join(', ')}`);
  return lines.join('\n');
}
