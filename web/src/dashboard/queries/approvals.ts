/**
 * Queries of approvals (docs/decisions/0059-approvals.md): a post's review and comments, a
 * profile's approval rule, the posts waiting for review, the team's users (for approvers and
 * mentions). Mutations invalidate these keys.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Paths } from '../api.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Approval = Json<Paths['/v1/posts/{postId}/approval']['get']['responses'][200]>['approval'];
export type PostComment = Json<Paths['/v1/posts/{postId}/comments']['get']['responses'][200]>['comments'][number];
export type ApprovalRule = Json<Paths['/v1/profiles/{profileId}/approval-rule']['get']['responses'][200]>['rule'];

export function useApproval(postId: string) {
  return useQuery({ queryKey: ['approval', postId], queryFn: () => unwrap(api.GET('/v1/posts/{postId}/approval', { params: { path: { postId } } })).then((r) => r.approval) });
}

export function useComments(postId: string) {
  return useQuery({ queryKey: ['comments', postId], queryFn: () => unwrap(api.GET('/v1/posts/{postId}/comments', { params: { path: { postId } } })).then((r) => r.comments) });
}

/** A profile's approval rule, with whether the viewer may approve there (none asked while `profileId` is empty). */
export function useApprovalRule(profileId: string) {
  return useQuery({
    queryKey: ['approval-rule', profileId],
    enabled: !!profileId,
    queryFn: () => unwrap(api.GET('/v1/profiles/{profileId}/approval-rule', { params: { path: { profileId } } })).then((r) => r.rule),
  });
}

/** How many posts waiting for approval a page of "Needs review" shows. */
export const PENDING_REVIEW_PAGE_SIZE = 50;

/** A page (from 1) of the posts waiting for approval (GET /v1/posts?status=pending_approval), soonest first, with its pagination. */
export function usePendingReview(page = 1) {
  return useQuery({
    queryKey: ['posts', 'pending_approval', page],
    queryFn: () => unwrap(api.GET('/v1/posts', { params: { query: { status: 'pending_approval', limit: PENDING_REVIEW_PAGE_SIZE, page, sortBy: 'scheduled-asc' } } })),
    placeholderData: keepPreviousData,
  });
}

/** The team's users (GET /v1/users), under the Team page's key. */
export function useTeamUsers() {
  return useQuery({ queryKey: ['team', 'users'], queryFn: () => unwrap(api.GET('/v1/users')).then((r) => r.users) });
}

export type ReviewLink = Json<Paths['/v1/review-links']['get']['responses'][200]>['reviewLinks'][number];

/** Client review links (GET /v1/review-links; no tokens), newest first. */
export function useReviewLinks() {
  return useQuery({ queryKey: ['review-links'], queryFn: () => unwrap(api.GET('/v1/review-links')).then((r) => r.reviewLinks) });
}
