// The manager's decision on a collaborator's ticket (aprobado / rechazado), in words, with the
// rejection's reason: shown on the collaborator's dashboard rows and cards and in the company view.
import { MSG } from '../../domain/messages';
import type { TicketReview } from '../../domain/ticket';
import './review-badge.css';

export function ReviewBadge({ review, block = false }: { review: TicketReview; block?: boolean }) {
  const approved = review.decision === 'aprobado';
  return (
    <span className={`review-badge review-badge--${approved ? 'approved' : 'rejected'}${block ? ' review-badge--block' : ''}`}>
      <span className="review-badge__word">{approved ? 'Aprobado' : 'Rechazado'}</span>
      {!approved && review.reason && (
        <span className="review-badge__reason">
          <span className="visually-hidden">{`${MSG.rejectionReasonLabel}: `}</span>
          {review.reason}
        </span>
      )}
    </span>
  );
}
