// What a per-account screen shows before its body: the selected tax account's body once the accounts are
// loaded, the sync's error with 'Reintentar' when they could not be, else a skeleton.
import type { ReactNode } from 'react';
import type { Account } from '../../domain/account';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { SkeletonCard } from '../ui/skeleton';
import { useLayout } from './layout-context';

export function ForSelectedAccount({ children, loading = TXT.loading, lines = 4 }: { children: (account: Account) => ReactNode; loading?: string; lines?: number }) {
  const { selected, sync, retrySync } = useLayout();
  if (selected) return <>{children(selected)}</>;
  if (sync.status === 'error') {
    return (
      <div className="card stack stack--start" role="alert">
        <p>{sync.message}</p>
        <Button variant="primary" onClick={retrySync}>
          {TXT.retry}
        </Button>
      </div>
    );
  }
  return <SkeletonCard label={loading} lines={lines} />;
}
