// Loading placeholders shaped like the content they stand for (brand guide: no spinners over blank pages).
import type { CSSProperties } from 'react';

export function Skeleton({ width = '100%', height = 16, radius }: { width?: CSSProperties['width']; height?: CSSProperties['height']; radius?: number }) {
  return <span className="skeleton" aria-hidden="true" style={{ width, height, ...(radius !== undefined ? { borderRadius: radius } : {}) }} />;
}

/** A card-shaped skeleton with a title and a few lines; `label` is announced to screen readers. */
export function SkeletonCard({ lines = 3, label }: { lines?: number; label: string }) {
  return (
    <div className="card stack" role="status" aria-label={label} style={{ gap: 12 }}>
      <Skeleton width="40%" height={22} />
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} width={i === lines - 1 ? '60%' : '100%'} />
      ))}
    </div>
  );
}
