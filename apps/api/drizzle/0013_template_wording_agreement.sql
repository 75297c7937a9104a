-- Issue 15 item 9: the diploma's wording agrees with the candidate and the signatory.
-- Stored designs copied from the national template still hold the generic texts: "né(e)" becomes
-- the {born} field ("né", "née"), and the attestation names the ministry signatory by the title
-- registered for its signature ({ministerTitle}). Designs edited by hand keep their own texts.
UPDATE "templates"
SET "design" = replace(
  replace("design"::text, '"né(e) à {birthPlace}', '"{born} à {birthPlace}'),
  'Vu les résultats de l''Examen d''État, le Ministre atteste que',
  'Vu les résultats de l''Examen d''État, {ministerTitle} atteste que'
)::jsonb
WHERE "design"::text LIKE '%"né(e) à {birthPlace}%'
   OR "design"::text LIKE '%Vu les résultats de l''Examen d''État, le Ministre atteste que%';
