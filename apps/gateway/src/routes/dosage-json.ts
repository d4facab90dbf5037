import type { catalogueV1 } from '@libs/contracts';

/** SPEC.md §2 Dosage, fields in the spec's order. */
export const dosageJson = (d: catalogueV1.Dosage) => ({
  form: d.form,
  physicalForm: d.physicalForm,
  adminMethod: d.adminMethod,
  strength: d.strength,
  id: d.id,
});
