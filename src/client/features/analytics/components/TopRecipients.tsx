import type { Analytics } from '@contract';
import { Users } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { EmptyState } from '@/components/EmptyState';

export function TopRecipients({ data }: { data: Analytics['topRecipients'] }) {
  const max = Math.max(1, ...data.map((r) => r.count));
  return (
    <Card role="region" aria-label="Top recipients">
      <CardHeader>
        <CardTitle>Top recipients</CardTitle>
        <CardDescription>The 10 people receiving the most items in this range</CardDescription>
      </CardHeader>
      <CardContent className="pt-4 sm:pt-4">
        {data.length === 0 ? (
          <EmptyState icon={Users} title="No items with a recipient in this range" className="py-6">
            Items logged without a recipient are counted in the charts, not here.
          </EmptyState>
        ) : (
          <Table aria-label="Top recipients (table)">
            <TableHeader>
              <TableRow>
                <TableHead className="w-10">#</TableHead>
                <TableHead>Recipient</TableHead>
                <TableHead className="text-right">Items</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.map((r, i) => (
                <TableRow key={r.recipientId}>
                  <TableCell className="text-fg-subtle tabular-nums">{i + 1}</TableCell>
                  <TableCell>
                    <span className="font-medium text-fg">{r.name}</span>
                    <span aria-hidden className="mt-1 block h-1.5 rounded-full bg-surface-muted">
                      <span
                        className="block h-full rounded-full bg-indigo-500"
                        style={{ width: `${(r.count / max) * 100}%` }}
                      />
                    </span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{r.count}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
