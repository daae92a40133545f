import { Table2 } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

interface ChartCardProps {
  title: string;
  description?: string;
  /** A one-sentence summary read by screen readers in place of the drawing. */
  summary: string;
  columns: [string, string];
  rows: Array<[string, string | number]>;
  children: ReactNode;
  className?: string;
}

/** A chart with its numbers one click away as a table (issue 4: each chart readable as a table). */
export function ChartCard({ title, description, summary, columns, rows, children, className }: ChartCardProps) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  return (
    <Card role="region" aria-label={title} className={className}>
      <CardHeader className="flex flex-row items-start justify-between gap-3 space-y-0">
        <div className="min-w-0 space-y-1">
          <CardTitle>{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((v) => !v)}
          className="shrink-0"
        >
          <Table2 aria-hidden className="size-4" />
          {showTable ? 'Hide table' : 'Show table'}
        </Button>
      </CardHeader>
      <CardContent className="pt-4 sm:pt-4">
        <div role="img" aria-label={summary} className="h-56 w-full sm:h-64">
          {children}
        </div>
        {showTable && (
          <div id={tableId} className="mt-4 max-h-72 overflow-y-auto rounded-lg border border-line">
            <Table aria-label={`${title} (table)`}>
              <TableHeader className="sticky top-0">
                <TableRow>
                  <TableHead>{columns[0]}</TableHead>
                  <TableHead className="text-right">{columns[1]}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map(([label, value]) => (
                  <TableRow key={label}>
                    <TableCell>{label}</TableCell>
                    <TableCell className="text-right tabular-nums">{value}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
