-- Statuses and kinds kept within their closed sets (db/schema, @sceau/contracts). No mapping first:
-- every value the code has written since these tables exist is in its set.
ALTER TABLE "archive_mailings" ADD CONSTRAINT "archive_mailings_status_check" CHECK ("archive_mailings"."status" in ('queued', 'sent', 'failed'));--> statement-breakpoint
ALTER TABLE "archive_mailings" ADD CONSTRAINT "archive_mailings_delivery_check" CHECK ("archive_mailings"."delivery" in ('attachment', 'link'));--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_status_check" CHECK ("broadcast_deliveries"."status" in ('sent', 'skipped', 'failed'));--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_status_check" CHECK ("broadcasts"."status" in ('queued', 'running', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_photo_status_check" CHECK ("generation_items"."photo_status" in ('pending', 'validated', 'rejected'));--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_data_status_check" CHECK ("generation_items"."data_status" in ('pending', 'validated', 'rejected'));--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_type_check" CHECK ("generations"."type" in ('diplome_etat', 'attestation_reussite'));--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_status_check" CHECK ("generations"."status" in ('created', 'pending_validation', 'ready_for_generation', 'in_progress', 'ready_for_signature', 'completed', 'failed', 'cancelled'));--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_signature_status_check" CHECK ("generations"."signature_status" in ('not_started', 'in_progress', 'finished'));--> statement-breakpoint
ALTER TABLE "importations" ADD CONSTRAINT "importations_kind_check" CHECK ("importations"."kind" in ('list', 'append'));--> statement-breakpoint
ALTER TABLE "importations" ADD CONSTRAINT "importations_status_check" CHECK ("importations"."status" in ('queued', 'running', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_type_check" CHECK ("templates"."owner_type" in ('country', 'institution'));--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_generation_type_check" CHECK ("templates"."generation_type" in ('diplome_etat', 'attestation_reussite'));