import { CloudOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/EmptyState';
import { useCurrentOrganization } from '@/lib/currentOrganization';

/** The organization list failed to load (it keeps retrying every 10 s). */
export function OrganizationsUnavailableScreen() {
  const { retry } = useCurrentOrganization();
  return (
    <div className="flex min-h-dvh items-center justify-center bg-canvas p-4">
      <Card className="w-full max-w-md">
        <EmptyState icon={CloudOff} title="We couldn't load your organizations">
          <p>Check your connection. We will keep trying in the background.</p>
          <Button className="mt-5" onClick={retry}>
            Try again
          </Button>
        </EmptyState>
      </Card>
    </div>
  );
}
