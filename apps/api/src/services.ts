import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { FileStorage } from './lib/storage.ts';
import { createFileStorage } from './lib/create-file-storage.ts';
import { GoogleIdentityVerifier } from './modules/accounts/google-identity.ts';
import { RegistrationService } from './modules/accounts/registration-service.ts';
import { Messenger } from './modules/messaging/messaging-service.ts';
import { OtpService } from './modules/otp/otp-service.ts';
import { SignaturesService } from './modules/signatures/signatures-service.ts';
import { StaffSignInLinks } from './modules/accounts/sign-in-links.ts';
import { UsersService } from './modules/accounts/users-service.ts';
import type { Logger } from 'pino';
import type { OpenChain } from './modules/chain/open-chain.ts';
import { issuingJobs } from './modules/generations/issuing-jobs.ts';
import { IssuingService } from './modules/generations/issuing-service.ts';
import { VerificationService } from './modules/verification/verification-service.ts';
import { SealKeyring } from './modules/verification/verification-seal.ts';
import { RevocationService } from './modules/revocation/revocation-service.ts';
import { CacheInvalidation } from './jobs/cache-invalidation.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { MinistryKeys } from './modules/keys/ministry-keys.ts';
import { ImportsService } from './modules/imports/imports-service.ts';
import { ResultsRegistryService } from './modules/imports/results-registry-service.ts';
import { DistributionService } from './modules/distribution/distribution-service.ts';
import { ResumableUploads } from './modules/imports/resumable-uploads.ts';
import { HolderService } from './modules/holder/holder-service.ts';
import { OneTimeLinks } from './modules/distribution/one-time-links.ts';
import { DownloadCounter } from './modules/verification/public-download-counter.ts';
import { TimestampingService } from './modules/timestamping/timestamping-service.ts';
import { Retimestamper } from './modules/timestamping/retimestamp-job.ts';
import { CredentialStatusService } from './modules/credential-status/credential-status-service.ts';
import { VcService } from './modules/vc/vc-service.ts';
import { SdJwtVcService } from './modules/sd-jwt-vc/sd-jwt-vc-service.ts';
import { credentialIssuerOf } from './modules/oid4vci/oid4vci-metadata.ts';
import { Oid4vciService } from './modules/oid4vci/oid4vci-service.ts';

export type Services = ReturnType<typeof createServices>;

/** The ministry's keys and chain: present in a process that issues (always in `server.ts`). */
export interface Identity {
  keys: MinistryKeys;
  chain: OpenChain;
}

/** Builds the services once per process; providers follow the configuration unless a test overrides them. */
export function createServices(
  db: Db,
  config: Config,
  overrides: { messenger?: Messenger; storage?: FileStorage; identity?: Identity; log?: Pick<Logger, 'info' | 'warn'>; invalidation?: CacheInvalidation; queue?: JobQueue } = {},
) {
  const messenger = overrides.messenger ?? new Messenger(config);
  const queue = overrides.queue ?? null;
  const storage = overrides.storage ?? createFileStorage(config, overrides.log);
  const identity = overrides.identity ?? null;
  // PAdES B-LTA's TSA and CRL (ADR 0135): issuing time-stamps with them, /tsa and /pki/* serve them.
  const timestamping = identity ? new TimestampingService(config, identity.keys, overrides.log) : null;
  // One seal key for issuing (which seals) and verification (which reads the seals), ADR 0154.
  const seal = new SealKeyring(config.verificationSeal, overrides.log ?? { warn: () => {} });
  const issuing = identity
    ? new IssuingService(db, config, identity.keys, storage, identity.chain, overrides.log ?? { info: () => {}, warn: () => {} }, {
        // The store comes from the configuration: the render threads build the same one (ADR 0110).
        workerFiles: overrides.storage ? undefined : { filesDir: config.filesDir, fileStorage: config.fileStorage },
        timestamping: timestamping!,
        seal,
      })
    : null;
  const retimestamper = timestamping ? new Retimestamper(db, storage, timestamping, config.timestamping, overrides.log ?? { info: () => {}, warn: () => {} }) : null;
  const otp = new OtpService(db, messenger, config.otp);
  const google = config.google.clientId ? new GoogleIdentityVerifier(config.google.clientId, config.google.jwksUrl) : null;
  const verification = identity
    ? new VerificationService(db, config, identity.keys, identity.chain, { storage, timestamping, seal, ...(overrides.log ? { log: overrides.log } : {}) })
    : null;
  // A revocation clears the verification answers of every process (ADR 0106).
  const invalidation = overrides.invalidation ?? new CacheInvalidation(overrides.log ?? { warn: () => {} });
  if (verification) invalidation.subscribe((hash) => verification.invalidate(hash));
  const imports = new ImportsService(db, storage, overrides.log ?? { info: () => {}, warn: () => {} }, queue);
  // The ministry's revocation status lists and the diplomas as W3C VC / Open Badges 3.0 (ADR 0144).
  const credentialStatus = new CredentialStatusService(db, config.publicUrl, identity?.keys ?? null);
  invalidation.subscribe(() => credentialStatus.invalidate());
  const vc = new VcService(db, config, identity?.keys ?? null, credentialStatus);
  const distribution = new DistributionService(db, config, storage, messenger, new OneTimeLinks(db), overrides.log ?? { info: () => {}, warn: () => {} }, queue);
  const sdJwtVc = identity ? new SdJwtVcService(db, config, identity.keys, credentialStatus) : null;
  return {
    messenger,
    storage,
    otp,
    registration: new RegistrationService(db, config, otp, messenger, google),
    users: new UsersService(db, messenger, new StaffSignInLinks(new OneTimeLinks(db), config.publicUrl)),
    signatures: new SignaturesService(db, storage),
    identity,
    issuing,
    jobs: issuing ? { ...issuingJobs(issuing), ...(retimestamper ? { retimestamp: retimestamper.job } : {}) } : null,
    timestamping,
    retimestamper,
    verification,
    invalidation,
    revocation: identity ? new RevocationService(db, identity.chain, (hash) => invalidation.invalidate(hash), queue) : null,
    imports,
    /** Resumable uploads of lists and photos zips (tus, ADR 0150). */
    uploads: new ResumableUploads(config.uploads),
    distribution,
    /** Each diploma's place in the revocation status lists, and the lists (ADR 0144). */
    credentialStatus,
    /** A published diploma as an Open Badges 3.0 / W3C VC 2.0 credential (ADR 0144). */
    vc,
    /** The holder's side: my diplomas and share links (ADR 0132). */
    holder: new HolderService(db, config.publicUrl, verification, sdJwtVc),
    /** Issuance of the holder's diplomas to their wallet by OpenID4VCI (ADR 0146): the SD-JWT VC and the Open Badges 3.0 VC. */
    oid4vci: new Oid4vciService(db, credentialIssuerOf(config), { sdJwt: sdJwtVc, openBadge: identity ? vc : null }),
    results: new ResultsRegistryService(db, storage, imports, overrides.log ?? { info: () => {}, warn: () => {} }),
    /** A published diploma's SD-JWT VC, signed by the ministry's active key (ADR 0145). */
    sdJwtVc,
    /** Public downloads of diploma PDFs, written in batches (ADR 0091). */
    downloads: new DownloadCounter(db, { log: overrides.log ?? { warn: () => {} } }),
    /** The job queue the services send to, given at construction; the platform defines its jobs and starts it (platform.ts). */
    queue,
  };
}
