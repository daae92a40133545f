import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { buttonClass, type ButtonSize, type ButtonVariant } from '../styles';

interface CtaLinkProps {
  href: string;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Called when the person shows intent (hover, focus, touch): the app starts loading the page. */
  onIntent?: (href: string) => void;
}

/** A call to action drawn as a button: an in-app link, or a plain link for anchors and mailto:. */
export function CtaLink({ href, children, variant, size, className, onIntent }: CtaLinkProps) {
  const classes = buttonClass(variant, size, className);
  if (href.startsWith('#') || href.includes(':')) {
    return (
      <a href={href} className={classes}>
        {children}
      </a>
    );
  }
  const intent = onIntent ? () => onIntent(href) : undefined;
  return (
    <Link href={href} className={classes} onPointerEnter={intent} onFocus={intent} onTouchStart={intent}>
      {children}
    </Link>
  );
}
