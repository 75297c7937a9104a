import type { Requirement } from './permissions.ts';

/**
 * The web app's routes (spec section 2) and who may open them. The web router and the guard tests
 * read this table; the API enforces the same permissions on the calls each page makes.
 */
export type RouteAccess = 'public' | 'guest' | 'auth';

export interface AppRoute {
  path: string;
  /** public: anyone; guest: visitors only (a signed-in user is sent away); auth: signed-in only. */
  access: RouteAccess;
  requirement?: Requirement;
  /** Where a signed-in user is sent from a guest-only route. */
  signedInRedirect?: string;
  name?: string;
}

export const APP_ROUTES = [
  { path: '/', access: 'public' },
  { path: '/contact', access: 'public' },
  { path: '/verification', access: 'public' },
  { path: '/terms-and-conditions', access: 'public' },
  { path: '/privacy-policy', access: 'public' },
  { path: '/verify/:id', access: 'public' },
  { path: '/student-check', access: 'public' },
  { path: '/mon-:product', access: 'public' },
  { path: '/view-certificate', access: 'public' },
  { path: '/direct-auth', access: 'public' },
  { path: '/phone-test', access: 'public' },
  /** Ours: what a holder's share link opens (ADR 0132). */
  { path: '/shared/:token', access: 'public' },
  { path: '/permission-test', access: 'auth', requirement: { anyPermission: ['users.list'] } },

  { path: '/login', access: 'guest', signedInRedirect: '/', name: 'login' },
  { path: '/register', access: 'guest', signedInRedirect: '/dashboard', name: 'register' },
  { path: '/otp-validation', access: 'guest', signedInRedirect: '/dashboard', name: 'otp_validation' },
  { path: '/forgot-password', access: 'guest', signedInRedirect: '/dashboard', name: 'forgot_password' },
  { path: '/reset-password', access: 'auth', name: 'reset_password' },

  { path: '/dashboard', access: 'auth' },
  /** Ours: the holder's side, for any signed-in person (ADR 0132). */
  { path: '/my-diplomas', access: 'auth' },
  { path: '/my-diplomas/shares', access: 'auth' },
  {
    path: '/certificates',
    access: 'auth',
    requirement: { anyPermission: ['generation.create', 'generation.view'], section: 'generation' },
  },
  { path: '/check-file/:id', access: 'auth', requirement: { anyPermission: ['generation.create'], section: 'generation' } },
  { path: '/show/:id', access: 'auth', requirement: { anyPermission: ['generation.view'], section: 'generation' } },
  {
    path: '/otp-generation/:id',
    access: 'auth',
    requirement: { anyPermission: ['generation.generate'], section: 'generation' },
  },
  {
    path: '/generating-op/:id',
    access: 'auth',
    requirement: { anyPermission: ['generation.generate'], section: 'generation' },
  },
  {
    path: '/validate-picture/:id',
    access: 'auth',
    requirement: { anyPermission: ['validation.photo'], section: 'validation' },
  },
  { path: '/validate-data/:id', access: 'auth', requirement: { anyPermission: ['validation.data'], section: 'validation' } },
  { path: '/student-reject/:id', access: 'auth', requirement: { anyPermission: ['validation.photo', 'validation.data'] } },
  { path: '/validated', access: 'auth', requirement: { anyPermission: ['validation.photo', 'validation.data'] } },
  {
    path: '/role-access',
    access: 'auth',
    requirement: { allPermissions: ['users.list', 'users.create', 'users.edit'], section: 'users' },
  },
  { path: '/settings', access: 'auth', requirement: { anyRole: ['root', 'admin'] } },
  /** Ours: the audit log of accounts and signatures (root only, like GET /audit-log). */
  { path: '/audit-log', access: 'auth', requirement: { anyRole: ['root'] } },
  /** Ours: the development outbox (what e-mails and SMS would have been sent); the API has it outside production only. */
  { path: '/dev/outbox', access: 'public' },
] as const satisfies readonly AppRoute[];

/** Route names on which the header is hidden (spec section 2, layout rules). */
export const HEADERLESS_ROUTE_NAMES = ['login', 'register', 'reset_password', 'forgot_password', 'otp_validation', 'not_found'] as const;

/** Pages whose header becomes sticky once the page has scrolled past the threshold. */
export const STICKY_HEADER_PATHS = ['/', '/verification', '/contact'] as const;
export const STICKY_HEADER_THRESHOLD_PX = 50;
