CREATE INDEX "generation_items_photo_key_idx" ON "generation_items" USING btree ("photo_key") WHERE "generation_items"."photo_key" is not null;
