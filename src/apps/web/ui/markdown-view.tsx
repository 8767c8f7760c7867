// Renders the Markdown tree with Preact elements. Every string goes through Preact as text (escaped); no
// HTML is ever injected, so model text cannot run script or restyle the page.
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { type Block, type Inline, parseMarkdown } from '../lib/markdown.ts';

function inlines(nodes: readonly Inline[]): ComponentChildren[] {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'em':
        return <em key={i}>{inlines(node.children)}</em>;
      case 'strong':
        return <strong key={i}>{inlines(node.children)}</strong>;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'br':
        return <br key={i} />;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {inlines(node.children)}
          </a>
        );
      default: {
        const unreachable: never = node;
        return String(unreachable);
      }
    }
  });
}

function blocks(nodes: readonly Block[]): ComponentChildren[] {
  return nodes.map((block, i) => {
    switch (block.kind) {
      case 'paragraph':
        return <p key={i}>{inlines(block.children)}</p>;
      case 'heading': {
        // Story headings sit under the page's own h1/h2, so they start at h3.
        const level = Math.min(6, block.level + 2);
        const Tag = `h${level}` as 'h3';
        return <Tag key={i}>{inlines(block.children)}</Tag>;
      }
      case 'list':
        return block.ordered ? (
          <ol key={i} start={block.start}>
            {block.items.map((item, j) => (
              <li key={j}>{inlines(item)}</li>
            ))}
          </ol>
        ) : (
          <ul key={i}>
            {block.items.map((item, j) => (
              <li key={j}>{inlines(item)}</li>
            ))}
          </ul>
        );
      case 'code':
        return (
          <pre key={i}>
            <code>{block.text}</code>
          </pre>
        );
      case 'blockquote':
        return <blockquote key={i}>{blocks(block.children)}</blockquote>;
      case 'rule':
        return <hr key={i} />;
      default: {
        const unreachable: never = block;
        return String(unreachable);
      }
    }
  });
}

/** Parsed once per text (a turn's narration is immutable; a streamed one is parsed as it grows). */
export function Markdown({ text }: { text: string }) {
  const parsed = useMemo(() => parseMarkdown(text), [text]);
  return (
    <div class="md">
      {blocks(parsed.blocks)}
      {parsed.truncated ? <p class="muted">(cut: the message is too long to show in full)</p> : null}
    </div>
  );
}
