import { type ReactNode, useMemo } from 'react';
import { Link, useInRouterContext } from 'react-router';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { type Block, type Inline, parseMarkdown } from '../lib/markdown-parse.ts';
import styles from './Markdown.module.css';

/** An in-app link: router navigation inside the app, a plain link elsewhere (tests, previews). */
function InternalLink({ to, kind, children }: { to: string; kind: 'user' | 'channel'; children: string }) {
  const className = styles.mention;
  return useInRouterContext() ? (
    <Link to={to} className={className} data-mention={kind}>
      {children}
    </Link>
  ) : (
    <a href={to} className={className} data-mention={kind}>
      {children}
    </a>
  );
}

function renderInline(nodes: readonly Inline[], keyPrefix: string): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${keyPrefix}.${index}`;
    switch (node.type) {
      case 'text':
        return withEmoji(node.text, key);
      case 'code':
        return (
          <code key={key} className={styles.inlineCode}>
            {node.text}
          </code>
        );
      case 'bold':
        return <strong key={key}>{renderInline(node.children, key)}</strong>;
      case 'italic':
        return <em key={key}>{renderInline(node.children, key)}</em>;
      case 'strike':
        return <s key={key}>{renderInline(node.children, key)}</s>;
      case 'mention':
        return (
          <InternalLink key={key} to={node.path} kind={node.kind}>
            {node.text}
          </InternalLink>
        );
      case 'link':
        return (
          <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInline(node.children, key)}
          </a>
        );
      default: {
        const exhaustive: never = node;
        return exhaustive;
      }
    }
  });
}

function renderBlocks(blocks: readonly Block[], keyPrefix: string): ReactNode[] {
  return blocks.map((block, index) => {
    const key = `${keyPrefix}.${index}`;
    switch (block.type) {
      case 'paragraph':
        return (
          <p key={key} className={styles.paragraph}>
            {block.lines.flatMap((line, lineIndex) => {
              const lineKey = `${key}.${lineIndex}`;
              const rendered = renderInline(line, lineKey);
              return lineIndex === 0 ? rendered : [<br key={`${lineKey}.br`} />, ...rendered];
            })}
          </p>
        );
      case 'code':
        return (
          <pre key={key} className={styles.codeBlock}>
            <code>{block.text}</code>
          </pre>
        );
      case 'quote':
        return (
          <blockquote key={key} className={styles.quote}>
            {renderBlocks(block.blocks, key)}
          </blockquote>
        );
      default: {
        const exhaustive: never = block;
        return exhaustive;
      }
    }
  });
}

/** A chat message's markdown as React elements; user text only ever becomes text nodes. */
export function Markdown({ source }: { source: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <div className={styles.markdown}>{renderBlocks(blocks, 'm')}</div>;
}
