import { AlertCircle } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

export function NotFoundScreen() {
  return (
    <div className="flex min-h-[60dvh] w-full items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardContent>
          <div className="mb-4 flex items-center gap-3">
            <AlertCircle aria-hidden className="size-8 shrink-0 text-red-500 dark:text-red-400" />
            <h1 className="text-2xl font-semibold text-fg">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-fg-muted">Did you forget to add the page to the router?</p>
          <Button asChild variant="outline" className="mt-6">
            <Link href="/">Go to the home page</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
