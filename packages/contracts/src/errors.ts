/**
 * Error codes the API answers with. Each maps to an HTTP status here and to a message in every
 * language in @rpm/i18n (locales/<lang>/errors.json). The console shows the message for the code;
 * it never parses English text.
 */
export const ERROR_STATUS = {
  'common.default': 500,
  'common.notFound': 404,
  'common.routeNotFound': 404,
  'common.invalidParameter': 400,
  'common.invalidPaging': 400,
  'common.payloadTooLarge': 413,
  'common.unsupportedMediaType': 415,
  'common.tooManyRequests': 429,
  /** A public call over an hourly quota of emails and SMS (per address, destination or tenant); Retry-After says when. */
  'common.sendQuota': 429,
  'common.maintenance': 502,
  'common.unavailable': 503,
  'auth.unauthorized': 401,
  'auth.sessionExpired': 401,
  /** The session was ended by a login elsewhere: the console ends its session (spec §7). */
  'auth.loggedInElsewhere': 403,
  /** Authenticated but not allowed: the console shows the message and keeps the session. */
  'auth.permissionDenied': 403,
  /** Login: unknown user or wrong password, worded the same so accounts cannot be probed. */
  'auth.wrongCredentials': 400,
  'auth.accountLocked': 400,
  'auth.accountDisabled': 400,
  /** Only doctor accounts may use the doctor app. */
  'auth.doctorOnly': 403,
  /** Only patient accounts (patients, sub-user holders, followers) may use the patient app. */
  'auth.patientOnly': 403,
  /** Too many failed logins from one address: wait, then try again. */
  'auth.throttled': 429,
  /** The session ended because the user's role or permissions changed: log in again. */
  'auth.permissionChanged': 401,
  /** The refresh token is unknown, expired, or was already used (which ends the session). */
  'auth.refreshInvalid': 401,
  /** A cookie-authenticated write or /ws upgrade came from a page of another origin (cross-site request forgery). */
  'auth.originRejected': 403,
  /** Login: the tenant code matches no active tenant. */
  'tenant.notFound': 400,
  /** Too many lookups of unknown tenant codes from one address: wait, then try again. */
  'tenant.lookupThrottled': 429,
  /** Tenant management (super admin). */
  'tenant.nameExists': 409,
  'tenant.codeExists': 409,
  /** Saving or testing connections: not SHARED, nor DEDICATED with exactly primary, replica and vitals. */
  'tenant.invalidConnectionType': 400,
  /** A supplied database server did not answer SELECT 1 (field errors name the connections). */
  'tenant.connectionFailed': 400,
  /** The tenant's own database could not be migrated (rights of the primary user). */
  'tenant.databaseSetupFailed': 400,
  /** Moving a tenant that already has users or records to another database is not supported. */
  'tenant.dataPlaneInUse': 409,
  /** Spec §5: a TIME_ZONE setting neither the runtime nor the database knows. */
  'tenant.timeZoneUnsupported': 400,
  /** Trial requests: a request is decided once. */
  'tenantRequest.alreadyDecided': 409,
  'otp.wrong': 400,
  'otp.expired': 400,
  'otp.tooManyAttempts': 400,
  'otp.resendTooSoon': 429,
  'otp.unverifiable': 400,
  'password.tooWeak': 400,
  'password.invalidCharacters': 400,
  'password.common': 400,
  'password.sameAsOld': 400,
  'password.wrongCurrent': 400,
  'password.noContact': 400,
  'account.notFound': 404,
  'account.emailExists': 409,
  'account.phoneExists': 409,
  'account.underage': 400,
  'account.termsRequired': 400,
  'account.timeZoneUnsupported': 400,
  'account.languageUnsupported': 400,
  'account.registrationFailed': 400,
  'account.superAdminPasswordForbidden': 403,
  'role.exists': 409,
  'role.notFound': 404,
  'role.required': 400,
  'role.inUse': 409,
  /** A role may only grant permissions its author holds. */
  'role.cannotGrant': 403,
  /** The account or role is not below the caller's own role in the hierarchy (contracts roles.ts). */
  'role.rankTooHigh': 403,
  'file.tooLarge': 413,
  'file.unsupportedType': 415,
  'file.missing': 400,
  /** A file of 0 bytes (spec §5: feedback attachments must not be empty). */
  'file.empty': 400,
  /** Scopes and health centers (spec §5, §8). */
  'scope.notFound': 404,
  'scope.nameExists': 409,
  'scope.inUse': 409,
  'scope.hasChildren': 409,
  /** Levels run from 1 (a root) to 5; a child is one level below its parent. */
  'scope.invalidLevel': 400,
  /** A scope cannot be moved below itself or one of its descendants. */
  'scope.invalidParent': 400,
  'scope.invalidAdmin': 400,
  'center.notFound': 404,
  'center.nameExists': 409,
  'center.inUse': 409,
  'center.invalidAdmin': 400,
  /** The database refused to leave a health center without its MAIN admin. */
  'center.mainAdminRequired': 409,
  /** Staff: spec §5 "at least one doctor for a doctor assistant", §8 wording. */
  'staff.assistantNeedsDoctor': 400,
  'staff.tenantRequired': 400,
  'staff.couldNotAssignTenant': 400,
  /** A center's main admin is changed on the health-center detail, not on the admin page (spec §6). */
  'staff.mainAdminLocked': 409,
  'staff.centerRequired': 400,
  'staff.scopeRequired': 400,
  'staff.doctorNotFound': 404,
  'staff.notAssistant': 409,
  'staff.cannotDisableSelf': 409,
  /** The account's state does not allow the action (see STAFF_STATUS_ACTIONS). */
  'staff.invalidTransition': 409,
  /** Level switcher: an unknown level, tenant, scope or health center. */
  'level.notFound': 404,
  /** Patients, care teams, devices, imports and exports (spec §8). */
  'patient.notFound': 404,
  /** Spec §8: the account was deleted (data removed or scheduled for removal). */
  'patient.accountDeleted': 410,
  'patient.codeExists': 409,
  'patient.phoneExists': 409,
  'patient.emailExists': 409,
  'patient.contractIdExists': 409,
  /** Spec §4: an account contract id cannot be changed once set. */
  'patient.contractIdLocked': 409,
  'patient.identifierRequired': 400,
  'patient.invalidStatus': 400,
  /** Spec §4: a change outside PATIENT_STATUS_TRANSITIONS, or to the same status. */
  'patient.cannotChangeStatus': 409,
  'patient.reasonRequired': 400,
  'patient.underage': 400,
  'patient.fileNotFound': 404,
  'doctor.notFound': 404,
  'doctor.alreadyAssigned': 409,
  'doctor.noRelationship': 409,
  'doctor.licenseExpired': 409,
  'doctor.tooManySpecialties': 400,
  'doctor.unknownSpecialty': 400,
  'doctor.licenseNotFound': 404,
  /** Spec §4: only a deactivated (disabled) doctor is restored. */
  'doctor.notDeactivated': 409,
  /** Spec §4, §9: a deactivated doctor can be restored within 30 days only. */
  'doctor.restorePeriodOver': 409,
  /** Spec §9: 1 family doctor, 5 emergency, 5 caring contacts. */
  'careTeam.limitReached': 409,
  'request.notFound': 404,
  'request.duplicate': 409,
  'request.toSelf': 400,
  'request.alreadyDecided': 409,
  'device.notFound': 404,
  'device.exists': 409,
  'device.unsupportedType': 400,
  'device.invalidMac': 400,
  'device.invalidImei': 400,
  'device.activated': 409,
  'device.cannotDelete': 409,
  'device.connectedByAnotherUser': 409,
  /** Not an .xlsx workbook, a zip over the entry or size limits, or unreadable. */
  'import.invalidFile': 400,
  'import.wrongHeaders': 400,
  'import.empty': 400,
  /** Spec §5: one import at a time per tenant. */
  'import.inProgress': 409,
  'import.notFound': 404,
  'import.noErrorFile': 404,
  /** A job's failure: it stopped before the end of its file (a restart, a database failure); stored rows stay. */
  'import.interrupted': 500,
  'export.noData': 404,
  'export.failed': 500,
  /** Vitals (spec §5 manual entry, §8 "invalid health-data date range"). */
  'health.valueOutOfRange': 400,
  /** Spec §5: systolic above diastolic by at least 20. */
  'health.pulsePressure': 400,
  'health.futureDate': 400,
  'health.valueRequired': 400,
  'health.invalidRecord': 400,
  'health.invalidDateRange': 400,
  'health.invalidThresholds': 400,
  /** A batch id already used for another patient. */
  'health.batchConflict': 409,
  /** A batch id already used for other content (the device re-sends under a new id). */
  'health.batchReused': 409,
  /** Dated more than a plausible age ago (contracts health.ts READING_MAX_AGE_MS). */
  'health.tooOld': 400,
  /** Dated before the patient's account existed or before the device was bound to the patient. */
  'health.beforeMonitoring': 400,
  'health.recordNotFound': 404,
  /** Spec §8: the signed-in account has no patient profile. */
  'health.noPatientProfile': 404,
  /** Alerts, SOS cases, tickets and followers (spec §3, §4, §6, §8). */
  'sosCase.notFound': 404,
  /** An action the SOS case machine (contracts cases.ts) does not allow from the case's status. */
  'sosCase.invalidTransition': 409,
  'sosCase.reasonRequired': 400,
  /** Spec §6: SOS is for main users only, not sub-users. */
  'sosCase.subUser': 409,
  /** A call or SMS to the patient from the case, when the patient has no phone. */
  'sosCase.patientNoPhone': 409,
  /** A voice recording of an SOS case that does not exist (or whose bytes are gone). */
  'sosRecording.notFound': 404,
  'ticket.notFound': 404,
  /** An action the ticket machine (contracts cases.ts) does not allow from the ticket's status. */
  'ticket.invalidTransition': 409,
  'ticket.reasonRequired': 400,
  'ticket.assigneeNotFound': 400,
  /** Ratings are given once the work is done (completed or closed). */
  'ticket.notRatable': 409,
  'alert.notFound': 404,
  /** Spec §8: the signed-in account has no patient profile. */
  'alert.noPatientProfile': 404,
  'contact.notFound': 404,
  /** Spec §5, §8: the user is already in the follower list. */
  'contact.exists': 409,
  /** Spec §4, §9: an invitation is resent at most once in 5 minutes. */
  'contact.resendTooSoon': 409,
  /** A move the invitation machine (contracts followers.ts) does not allow from its state. */
  'contact.invalidTransition': 409,
  /** Followers and sub-users (spec §3, §6). */
  'invitation.notFound': 404,
  /** The code of the invitation SMS does not match (only the holder of the invited phone has it). */
  'invitation.wrongCode': 400,
  /** OTP_RULES.maxAttempts wrong codes: refused, even the right one, until the invitation is resent. */
  'invitation.tooManyAttempts': 400,
  /** The invitation's code is older than INVITATION_CODE_DAYS (or there is none): it must be resent. */
  'invitation.codeExpired': 400,
  /** The x-patient-profile header names no profile this session may use. */
  'profile.notFound': 404,
  /** A follower reads a followed patient's data but changes none of it. */
  'profile.readOnly': 403,
  'subUser.notFound': 404,
  /** Spec §8: sub-user limit reached. */
  'subUser.limitReached': 409,
  /** Spec §8 "prescription not found": none the caller may see (a patient never sees a deactivated one). */
  'prescription.notFound': 404,
  /** Spec §4: deactivation is permanent; a deactivated (or replaced) prescription is not edited again. */
  'prescription.deactivated': 409,
  /** Spec §5 medicines and reminders: the field errors name each rule broken (carePlan:problems.* messages). */
  'prescription.invalid': 400,
  /** Spec §8 "reminder not found" (a care reminder; deleted ones are gone for everyone). */
  'reminder.notFound': 404,
  /** Spec §5 reminder rules: the field errors name each rule broken (carePlan:problems.* messages). */
  'reminder.invalid': 400,
  'event.notFound': 404,
  /** Spec §8 "event already at that time": another event of the patient (not canceled) has it. */
  'event.duplicateTime': 409,
  /** Spec §8, §9: at most EVENT_LIMIT planned events to come. */
  'event.limitReached': 409,
  'schedule.notFound': 404,
  /** Spec §5 schedule rules: the field errors name each rule broken (errors schedule.problems.*). */
  'schedule.invalid': 400,
  /** A schedule's first day is before the doctor's today. */
  'schedule.pastDate': 400,
  /** Spec §5: a doctor's schedule that conflicts with an existing one is refused. */
  'schedule.conflict': 409,
  /** Spec §4: the transition is not open from the schedule's state (decided already, or not the doctor's to change). */
  'schedule.wrongState': 409,
  /** Spec §5: reject reasons are required. */
  'schedule.reasonRequired': 400,
  /** Spec §8: cannot delete a schedule with existing appointments (cancel them first). */
  'schedule.hasAppointments': 409,
  /** The statistical report: from after to, or more than SCHEDULE_REPORT_MAX_DAYS days apart. */
  'schedule.reportRange': 400,
  'appointment.notFound': 404,
  /** The start is not a slot of an approved schedule of the doctor (or is in the past). */
  'appointment.notASlot': 400,
  /** Another open appointment holds the doctor's slot. */
  'appointment.slotTaken': 409,
  /** The patient has another open appointment at that time. */
  'appointment.patientBusy': 409,
  /** Spec §4: the transition is not open from the appointment's state, or only its doctor makes it. */
  'appointment.wrongState': 409,
  /** Spec §4: completing needs a diagnosis and advice. */
  'appointment.diagnosisRequired': 400,
  /** Spec §5: cancel reasons are required. */
  'appointment.reasonRequired': 400,
  /** A check-in outside its window: from 2 hours before the start to the end of the slot. */
  'appointment.checkInClosed': 409,
  /** The video room belongs to the appointment's doctor and patient only. */
  'video.notAParty': 403,
  /** Only online appointments have a video room. */
  'video.notOnline': 409,
  /** The room opens VIDEO_ROOM_OPENS_MINUTES before the start and closes at the end of the slot (or when the appointment is completed or cancelled). */
  'video.roomClosed': 409,
  'medicalRecord.notFound': 404,
  /** The examination date is before MEDICAL_RECORD_EARLIEST_DATE or after today in the patient's time zone. */
  'medicalRecord.invalidDate': 400,
  /** At most MEDICAL_RECORD_MAX_FILES attachments on one record. */
  'medicalRecord.tooManyFiles': 409,
  'intake.notFound': 404,
  /** A dose is answered once (taken or skipped). */
  'intake.alreadyAnswered': 409,
  /** A dose is answered from INTAKE_ANSWER_AHEAD_HOURS before it is due, and never taken in the future. */
  'intake.notYetDue': 400,
  /** Not one of the caller's notifications. */
  'notification.notFound': 404,
  /** A message needs at least one recipient. */
  'notification.noRecipients': 400,
  /** A recipient the sender cannot see (another center's patient, an unknown account). */
  'notification.recipientNotFound': 404,
  /** A gateway other than the local one needs its credentials (kept when the provider stays). */
  'gateway.credentialsRequired': 400,
  /** eSMS sends SMS only: it cannot place calls. */
  'gateway.unsupported': 400,
  /** A callback address that names no gateway of this kind. */
  'gateway.unknownCallback': 404,
  /** A callback whose signature does not match the tenant's credentials (X-Twilio-Signature). */
  'gateway.signatureInvalid': 403,
  /** Not a feedback item the caller may see (another center's, another sender's, another tenant's). */
  'feedback.notFound': 404,
  /** A status change outside FEEDBACK_TRANSITIONS (a closed item stays closed). */
  'feedback.invalidTransition': 409,
  /** A closed item takes no more replies. */
  'feedback.closed': 409,
  /** At most FEEDBACK_MAX_IMAGES images with one feedback. */
  'feedback.tooManyImages': 400,
  'review.notFound': 404,
  /** A doctor is rated by a patient on its care team or with a completed appointment with it. */
  'review.noRelation': 403,
  /** Only a completed appointment is rated. */
  'review.appointmentNotCompleted': 409,
  /** At most REVIEW_MAX_IMAGES images on one review. */
  'review.tooManyImages': 400,
  /** The moderation action is not allowed in the review's state (REVIEW_TRANSITIONS). */
  'review.wrongState': 409,
  /** Unknown, another tenant's, outside the caller's level, or (for a reader) not sent to them. */
  'announcement.notFound': 404,
  /** A published or canceled announcement is never edited or canceled again. */
  'announcement.notEditable': 409,
  'package.notFound': 404,
  /** Spec §5, §8: "Package ID is existed". */
  'package.codeExists': 409,
  'package.nameExists': 409,
  /** A disabled package takes no new subscriptions. */
  'package.disabled': 409,
  /** The default (ZERO) package stays enabled and free: it is what cancelling returns to. */
  'package.defaultLocked': 409,
  /** The package's currency cannot change once someone subscribed (prices and orders would disagree). */
  'package.currencyLocked': 409,
  /** Spec §6: paid packages work only with a connected wearable. */
  'package.wearableRequired': 409,
  /** Spec §6, §8: a paid feature or a limit past the package's: upgrade needed. */
  'package.upgradeRequired': 403,
  /** Spec §8: "Package change or cancel failed" (nothing current to change or cancel). */
  'subscription.changeFailed': 409,
  'subscription.notFound': 404,
  'codePackage.notFound': 404,
  /** The series prefix is another batch's. */
  'codePackage.prefixExists': 409,
  /** Spec §8: "Scratch card code or security code incorrect" (unknown series or wrong code). */
  'activationCode.wrong': 400,
  /** Not paid for by its organisation yet, locked, or outside its dates. */
  'activationCode.unavailable': 409,
  'activationCode.used': 409,
  /** CODE_ATTEMPTS_PER_DAY wrong codes within a day. */
  'activationCode.tooManyAttempts': 429,
  /** Partner verification refused: the partner id is not this tenant's or the API key is not the one issued to it. */
  'payment.partnerVerifyFailed': 400,
  /** A wizard step out of order: the provider keys before partner verification, the tax before the keys, a payment before both. */
  'payment.methodNotFinalized': 409,
  /** The provider refused the keys (or the account they open is not the one named). */
  'payment.providerKeyInvalid': 400,
  /** The provider could not be reached to check the keys: try again. */
  'payment.providerUnavailable': 502,
  /** The provider does not take this currency (VNPay: VND only). */
  'payment.currencyUnsupported': 400,
  /** A callback address that names no tenant's payment provider of this kind. */
  'payment.unknownCallback': 404,
  /** A callback or sandbox completion whose signature does not match. */
  'payment.signatureInvalid': 403,
  /** Not a payment of this tenant. */
  'payment.notFound': 404,
  /** Spec §5, §8: paid packages in the app need a 10-digit phone starting 098. */
  'payment.phoneNotSupported': 400,
  /** Not an order the caller sees. */
  'order.notFound': 404,
  /** A cart the checkout does not take: the same package twice, a free package, two packages, or two currencies. */
  'order.invalidCart': 400,
  /** Only a paid order (not a coupon-paid one) can be refunded, once. */
  'order.notRefundable': 409,
  /** The provider refused the refund. */
  'order.refundFailed': 502,
  'order.cdrNotFound': 404,
  /** Unknown, disabled, outside its dates, used up, or in another currency. */
  'coupon.invalid': 400,
  'coupon.codeExists': 409,
  'coupon.notFound': 404,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export function statusOfError(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
