import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableHeader, TableRow } from '@/components/ui/table';

/** A card with its title and a sentence on what it holds above its content, and what follows it (dialogs). */
export function TitledCard({
  title,
  description,
  contentClassName,
  children,
  after,
}: {
  title: string;
  description: ReactNode;
  /** Classes of the card's content ("grid gap-4 …"). */
  contentClassName?: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
      {after}
    </Card>
  );
}

/**
 * A card that holds one list: its title and a sentence on what it lists, the list edge to edge
 * below them, and the dialogs its rows open.
 */
export function ListCard({
  title,
  description,
  children,
  dialogs,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
  dialogs?: ReactNode;
}) {
  return (
    <TitledCard title={title} description={description} contentClassName="px-0 pb-2 sm:px-0 sm:pb-2" after={dialogs}>
      {children}
    </TitledCard>
  );
}

/** The skeleton rows of a list card's table: one line of placeholders a row, between rules. */
export function CardTableSkeleton({ label, children }: { label: string; children: ReactNode }) {
  return (
    <SkeletonRows
      label={label}
      className="divide-y divide-line-subtle border-t border-line-subtle"
      row={() => <div className="flex items-center gap-4 px-5 py-3.5 sm:px-6">{children}</div>}
    />
  );
}

/**
 * A list card's rows, twice over: a table from `sm` up and a list of small cards on a phone, both
 * named `label`. The caller gives the table's head cells, its rows and the list's items.
 */
export function CardTableOrList({
  label,
  head,
  rows,
  items,
}: {
  label: string;
  head: ReactNode;
  rows: ReactNode;
  items: ReactNode;
}) {
  return (
    <>
      <div className="hidden sm:block">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow className="hover:bg-transparent">{head}</TableRow>
          </TableHeader>
          <TableBody>{rows}</TableBody>
        </Table>
      </div>
      <ul aria-label={label} className="divide-y divide-line-subtle border-t border-line-subtle sm:hidden">
        {items}
      </ul>
    </>
  );
}
