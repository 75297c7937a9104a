import {
  archiveUsersRequest,
  archiveUsersResponse,
  createUserRequest,
  getOtpRequest,
  googleAuthRequest,
  registerRequest,
  registerResponse,
  resetPasswordRequest,
  resetUserPasswordResponse,
  rolesResponse,
  signedInResponse,
  otpSentResponse,
  updateUserRequest,
  userResponse,
  usersQuery,
  usersResponse,
  validateOtpRequest,
} from '../accounts.ts';
import { errorResponse, idParam } from '../api.ts';
import { logoutResponse, meResponse, tokenRequest, tokenResponse } from '../auth.ts';
import { signInLinkResponse } from '../distribution.ts';
import { endpoint } from '../endpoint.ts';

const usersList = { anyPermission: ['users.list'], section: 'users' } as const;
const usersEdit = { anyPermission: ['users.edit'], section: 'users' } as const;

/** Signing in and out, self-service accounts, and the staff accounts (spec sections 3, 4 and 7). */
export const accountsEndpoints = {
  /** 429 when the sign-in throttle holds the login or the address back. */
  token: endpoint({
    method: 'POST',
    path: '/oauth/token',
    access: 'public',
    tags: ['auth'],
    summary: 'Sign in (OAuth 2 password grant)',
    body: tokenRequest,
    responses: { 200: tokenResponse, 429: errorResponse },
  }),
  me: endpoint({ method: 'GET', path: '/me', access: 'user', tags: ['auth'], summary: 'The signed-in profile', responses: { 200: meResponse } }),
  logout: endpoint({ method: 'POST', path: '/user/logout', access: 'user', tags: ['auth'], summary: 'Sign out (revokes the token)', responses: { 200: logoutResponse } }),

  register: endpoint({
    method: 'POST',
    path: '/register',
    access: 'public',
    tags: ['auth'],
    summary: 'Create an account (confirmed by a one-time code sent for this attempt, then it holds no role until granted one)',
    body: registerRequest,
    responses: { 200: registerResponse },
  }),
  sendCode: endpoint({
    method: 'POST',
    path: '/register/getOtp',
    access: 'public',
    tags: ['auth'],
    summary: 'Send a one-time code (registration or password recovery)',
    body: getOtpRequest,
    responses: { 200: otpSentResponse, 429: errorResponse },
  }),
  validateCode: endpoint({
    method: 'POST',
    path: '/register/validateOtp',
    access: 'public',
    tags: ['auth'],
    summary: 'Check a one-time code; a right one signs the person in',
    body: validateOtpRequest,
    responses: { 200: signedInResponse },
  }),
  /** Open while a temporary password must be changed: this is the change. */
  resetPassword: endpoint({
    method: 'POST',
    path: '/reset-password',
    access: 'user',
    tags: ['auth'],
    summary: 'Set a new password (signed in: with the current or temporary password, or in the session a recovery code opened)',
    body: resetPasswordRequest,
    responses: { 200: signedInResponse },
  }),
  signInWithGoogle: endpoint({
    method: 'POST',
    path: '/auth/byGoogle',
    access: 'public',
    tags: ['auth'],
    summary: 'Sign in with a Google ID token',
    body: googleAuthRequest,
    responses: { 200: signedInResponse },
  }),

  users: endpoint({
    method: 'GET',
    path: '/users',
    access: usersList,
    tags: ['users'],
    summary: 'Staff accounts, paged',
    query: usersQuery,
    responses: { 200: usersResponse },
  }),
  roles: endpoint({ method: 'GET', path: '/roles', access: usersList, tags: ['users'], summary: 'Roles and their permissions', responses: { 200: rolesResponse } }),
  user: endpoint({ method: 'GET', path: '/users/:id', access: usersList, tags: ['users'], summary: 'One account', params: idParam, responses: { 200: userResponse } }),
  createUser: endpoint({
    method: 'POST',
    path: '/users',
    access: { anyPermission: ['users.create'], section: 'users' },
    tags: ['users'],
    summary: 'Add an account (a temporary password is sent to it)',
    body: createUserRequest,
    responses: { 201: userResponse },
  }),
  updateUser: endpoint({
    method: 'PUT',
    path: '/users/:id',
    access: usersEdit,
    tags: ['users'],
    summary: 'Edit an account, its roles and scope',
    params: idParam,
    body: updateUserRequest,
    responses: { 200: userResponse },
  }),
  resetUserPassword: endpoint({
    method: 'POST',
    path: '/users/:id/reset',
    access: usersEdit,
    tags: ['users'],
    summary: "Reset an account's password (a temporary one is sent to it)",
    params: idParam,
    responses: { 200: resetUserPasswordResponse },
  }),
  sendSignInLink: endpoint({
    method: 'POST',
    path: '/users/:id/sign-in-link',
    access: usersEdit,
    tags: ['users'],
    summary: 'Send an account a one-time sign-in link (15 minutes) by e-mail or SMS',
    params: idParam,
    responses: { 200: signInLinkResponse },
  }),
  archiveUsers: endpoint({
    method: 'DELETE',
    path: '/users',
    access: { anyPermission: ['users.delete'], section: 'users' },
    tags: ['users'],
    summary: 'Archive accounts',
    body: archiveUsersRequest,
    responses: { 200: archiveUsersResponse },
  }),
} as const;
