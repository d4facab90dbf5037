import type { catalogueV1 } from '@libs/contracts';

/** A dosage's fields, in the order clients have always been given them. */
export const dosageJson = (d: catalogueV1.Dosage) => ({
  form: d.form,
  physicalForm: d.physicalForm,
  adminMethod: d.adminMethod,
  strength: d.strength,
  id: d.id,
});
