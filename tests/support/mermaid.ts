/** Draws a machine as a Mermaid state diagram, straight from its state nodes, so the picture cannot drift. */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

function idOf(node: AnyStateNode): string {
  return node.id.replace(/[^a-zA-Z0-9]/g, '_');
}

function eventLabel(definition: AnyTransitionDefinition): string {
  const type = definition.eventType;
  let label: string;
  if (type === '') label = 'always';
  else if (type.startsWith('xstate.done.actor.')) label = `done ${type.slice('xstate.done.actor.'.length)}`;
  else if (type.startsWith('xstate.error.actor.'))
    label = `error ${type.slice('xstate.error.actor.'.length)}`;
  else if (type.startsWith('xstate.after.')) label = `after ${type.split('.')[2]}`;
  else label = type;
  const guard = definition.guard as { type?: string } | string | undefined;
  const guardName = typeof guard === 'string' ? guard : guard?.type;
  return guardName ? `${label} [${guardName}]` : label;
}

function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

function drawNode(node: AnyStateNode, indent: string, lines: string[]): void {
  const children = Object.values(node.states) as AnyStateNode[];
  if (children.length === 0) {
    lines.push(`${indent}state "${node.key}" as ${idOf(node)}`);
    return;
  }
  lines.push(`${indent}state "${node.key}" as ${idOf(node)} {`);
  children.forEach((child, index) => {
    if (node.type === 'parallel' && index > 0) lines.push(`${indent}  --`);
    drawNode(child, `${indent}  `, lines);
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

export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const root = machine.root;
  if (root.type === 'parallel') {
    // Mermaid draws parallel regions only inside a composite state, separated by `--`.
    drawNode(root, '  ', lines);
  } else {
    for (const child of Object.values(root.states) as AnyStateNode[]) drawNode(child, '  ', lines);
    if (root.initial?.target?.[0]) lines.push(`  [*] --> ${idOf(root.initial.target[0] as AnyStateNode)}`);
  }
  drawTransitions(root, lines);
  return lines.join('\n');
}
