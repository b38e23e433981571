// Review row → the API object: rating and body are withheld (null) while the review is not visible.
import type { ReviewRow } from './queries.js';
import type { Review } from './schemas.js';

export function serializeReview(row: ReviewRow): Review {
  return {
    object: 'review',
    id: row.id,
    order: row.order_id,
    author_role: row.author_role,
    author: row.author_id,
    subject: row.subject_id,
    visible: row.visible,
    rating: row.visible ? row.rating : null,
    body: row.visible ? row.body : null,
    removed: row.removed,
    created_at: new Date(row.created_at).toISOString(),
  };
}
