import {
  contactSchema,
  followedPatientSchema,
  followerHiddenSchema,
  followerInviteSchema,
  followerUpdateSchema,
  invitationConfirmSchema,
  receivedInvitationSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import type { AlertEnvironment } from '../alerts/environment.js';
import {
  confirmInvitation,
  declineInvitation,
  hideFromFollower,
  inviteFollower,
  listFollowing,
  listMyFollowers,
  listReceivedInvitations,
  removeFollower,
  resendFollowerInvitation,
  stopFollowing,
  updateFollower,
} from './follower-service.js';

const idParams = z.object({ id: z.uuid() });
const contactParams = z.object({ contactId: z.uuid() });
const contactResponse = { 200: successEnvelope(contactSchema) };
const nullResponse = { 200: successEnvelope(z.null()) };

const PROFILE =
  'The record is the session’s profile (x-patient-profile: the own record or a sub-user it holds; a followed patient’s profile is read only, profile.readOnly). Patient sessions only: a staff account gets 404 health.noPatientProfile.';
const ACCOUNT = 'The signed-in account’s own (the profile header does not apply). Patient sessions only: staff get 404 health.noPatientProfile.';

/** The patient app's followers, invitations and followed patients under /health (spec §2 contacts, §4 relative invitation). */
export const followerMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['followers'];
  const environmentOf = (request: FastifyRequest): AlertEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    kick: () => {
      app.messaging.kick();
    },
    secretsKey: app.config.secretsKey,
  });

  app.get(
    '/me/followers',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `The profile’s followers (emergency, caring, coach) that are not deleted, favourite first, then emergency, then oldest: the order calls are placed. Audited. ${PROFILE}`,
        response: { 200: successEnvelope(z.array(contactSchema)) },
      },
    },
    async (request) => ok(await listMyFollowers(environmentOf(request))),
  );

  app.post(
    '/me/followers',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Invites a person by phone (status SENT; an SMS in the patient’s language says who invites and to confirm in the app). request.toSelf for the patient’s own phone; contact.exists for a phone already among the contacts; careTeam.limitReached past 5 of the type; contact.resendTooSoon when the phone was invited within 5 minutes (a deleted invitation included). Audited. ${PROFILE}`,
        body: followerInviteSchema,
        response: contactResponse,
      },
    },
    async (request) => ok(await inviteFollower(environmentOf(request), request.body)),
  );

  app.put(
    '/me/followers/:id',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Edits a follower’s alias, relationship, type (careTeam.limitReached past 5 of the new type) and favourite. contact.notFound; contact.invalidTransition for a deleted one. Audited. ${PROFILE}`,
        params: idParams,
        body: followerUpdateSchema,
        response: contactResponse,
      },
    },
    async (request) => ok(await updateFollower(environmentOf(request), request.params.id, request.body)),
  );

  app.put(
    '/me/followers/:id/hidden',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Sets the data kinds hidden from this follower (spec §6; the database hides them from its reads and live events at once; a follower.changed event tells its app). contact.notFound; contact.invalidTransition for a deleted one. Audited. ${PROFILE}`,
        params: idParams,
        body: followerHiddenSchema,
        response: contactResponse,
      },
    },
    async (request) => ok(await hideFromFollower(environmentOf(request), request.params.id, request.body.hiddenKinds)),
  );

  app.post(
    '/me/followers/:id/resend',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Sends a SENT or RESENT invitation again (→ RESENT). contact.resendTooSoon within 5 minutes of the last send (Retry-After says when); contact.invalidTransition once confirmed or deleted; contact.notFound. Audited. ${PROFILE}`,
        params: idParams,
        response: contactResponse,
      },
    },
    async (request) => ok(await resendFollowerInvitation(environmentOf(request), request.params.id)),
  );

  app.delete(
    '/me/followers/:id',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Deletes a follower or a pending invitation (→ DELETED, kept as history); a confirmed follower loses access at once. contact.invalidTransition when already deleted; contact.notFound. Audited. ${PROFILE}`,
        params: idParams,
        response: nullResponse,
      },
    },
    async (request) => {
      await removeFollower(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/me/invitations',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `Invitations waiting for the account’s phone (SENT or RESENT), newest first, with the inviting patient’s name only. Audited. ${ACCOUNT}`,
        response: { 200: successEnvelope(z.array(receivedInvitationSchema)) },
      },
    },
    async (request) => ok(await listReceivedInvitations(environmentOf(request))),
  );

  app.post(
    '/me/invitations/:id/confirm',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Confirms an invitation to the account’s phone (→ CONFIRMED) with the 6-digit code of its last SMS, so that only the holder of the invited phone can: the account follows the patient from now on. invitation.wrongCode (counted); invitation.tooManyAttempts after 5 wrong codes, even with the right one, until the patient resends; invitation.codeExpired when the code is 7 days old or there is none (a resend replaces the code; the earlier one is then wrong); invitation.notFound; request.toSelf for one’s own record or sub-user; contact.exists when the account follows the patient already. Audited (never the code). ${ACCOUNT}`,
        params: idParams,
        body: invitationConfirmSchema,
        response: { 200: successEnvelope(followedPatientSchema) },
      },
    },
    async (request) => ok(await confirmInvitation(environmentOf(request), request.params.id, request.body.code)),
  );

  app.post(
    '/me/invitations/:id/decline',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `Declines an invitation to the account’s phone (→ DELETED). invitation.notFound. Audited. ${ACCOUNT}`,
        params: idParams,
        response: nullResponse,
      },
    },
    async (request) => {
      await declineInvitation(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/me/following',
    {
      config: { access: 'relative.view' },
      schema: {
        tags,
        summary: `The patients the account follows (“My Patients”): name, contact type, relationship, favourite, hidden kinds, status, last reading, open SOS case. Favourites first. Audited. ${ACCOUNT}`,
        response: { 200: successEnvelope(z.array(followedPatientSchema)) },
      },
    },
    async (request) => ok(await listFollowing(environmentOf(request))),
  );

  app.delete(
    '/me/following/:contactId',
    {
      config: { access: 'relative.update' },
      schema: {
        tags,
        summary: `The account stops following a patient (→ DELETED); its access ends at once. contact.notFound. Audited. ${ACCOUNT}`,
        params: contactParams,
        response: nullResponse,
      },
    },
    async (request) => {
      await stopFollowing(environmentOf(request), request.params.contactId);
      return ok(null);
    },
  );
};
