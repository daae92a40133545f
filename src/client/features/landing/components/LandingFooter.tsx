import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Brand } from './Brand';

const linkClass =
  'rounded text-sm text-slate-600 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500';

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      <ul className="mt-4 space-y-3">{children}</ul>
    </div>
  );
}

/** The footer: the page's anchors and the way in (spec: #features, #pricing, /register, /login). */
export function LandingFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <Brand />
          <p className="mt-4 max-w-sm text-sm leading-relaxed text-slate-600">
            Mail and package management for residential buildings, hotels, offices and campuses.
          </p>
        </div>
        <FooterColumn title="Product">
          <li>
            <a href="#features" className={linkClass}>
              Features
            </a>
          </li>
          <li>
            <a href="#pricing" className={linkClass}>
              Pricing
            </a>
          </li>
          <li>
            <Link href="/pricing" className={linkClass}>
              Pricing per licence
            </Link>
          </li>
        </FooterColumn>
        <FooterColumn title="Account">
          <li>
            <Link href="/register" className={linkClass}>
              Create an account
            </Link>
          </li>
          <li>
            <Link href="/login" className={linkClass}>
              Sign In
            </Link>
          </li>
        </FooterColumn>
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-500 sm:px-6">
          © {new Date().getFullYear()} Pigeonhole
        </p>
      </div>
    </footer>
  );
}
