/**
 * The domain records the writers store. Each source maps onto them (see
 * docs/REFERENCE.md, "Sources"); optional fields are ones some sources lack.
 */

/** One component a laboratory test reports, e.g. "Haemoglobin" of a full blood count. */
export interface LabTestResult {
  name: string;
  normalRange: string;
  units: string;
}

export interface LabTestRecord {
  /** Stable id from the source; see labTestSourceId(). */
  sourceId: string;
  loinc?: string;
  name: string;
  categoryName: string;
  subCategoryName: string;
  /** Adult reference range as written, e.g. "3.5-5.1" or "Negative". */
  normalRange: string;
  units: string;
  description?: string;
  methodology?: string;
  /** Turnaround time, e.g. "1-3 days". */
  duration?: string;
  testResults?: LabTestResult[];
}

export interface DrugRecord {
  /** Stable id from the source; see drugSourceId(). */
  sourceId: string;
  name: string;
  /** Left out, the stored value is kept. */
  drugbankId?: string;
  /** Left out or empty, the stored value is kept. */
  description?: string;
  /** WHO ATC level 5 codes. Left out, the stored codes are kept; given, they replace them. */
  atcCodes?: string[];
}

/** One form and strength of a drug, e.g. a Drugs@FDA product. */
export interface DosageRecord {
  /** Stable id from the source, e.g. fdaProductSourceId(applNo, productNo). */
  sourceId: string;
  /** The drug's sourceId; the drug must be written first (same transaction is fine). */
  drugSourceId: string;
  /** e.g. "Tablet", "Injection" (Drugs@FDA: the part of Form before ";"). */
  form: string;
  /** solid, liquid, semi-solid, powder or gas. */
  physicalForm?: string;
  /** Route, e.g. "oral", "intravenous" (Drugs@FDA: the part of Form after ";"). */
  adminMethod?: string;
  /** e.g. "500 mg" or "20 mg/mL"; several ingredients joined by "; ". */
  strength?: string;
  /** e.g. "Prescription", "Over-the-counter", "Discontinued". */
  marketingStatus?: string;
  /** The name the product is sold under (Drugs@FDA DrugName, e.g. "GLUCOPHAGE"): the drug is found by it. */
  brandName?: string;
}

/** A WHO ATC group or substance; its level and parent follow from the code. */
export interface DrugCategoryRecord {
  code: string;
  name: string;
}

export interface ConditionRecord {
  /** Stable id from the source; see conditionSourceId(). */
  sourceId: string;
  name: string;
  /** Disease Ontology id, e.g. "DOID:9352". */
  doid?: string;
  /** Left out or empty, the stored value is kept. */
  description?: string;
}

/** treats: disease-modifying (PharmacotherapyDB DM); symptomatic: relieves symptoms (SYM). */
export type IndicationType = 'treats' | 'symptomatic';

/** A drug indicated for a condition; keyed by the condition and the drug (DrugBank id, else name). */
export interface IndicationRecord {
  /** The condition's sourceId; the condition must be written first. */
  conditionSourceId: string;
  drugName: string;
  drugbankId?: string;
  type: IndicationType;
}

export type PremiseType = 'pharmacy' | 'hospital' | 'clinic' | 'laboratory';

export interface PremiseAddress {
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2, e.g. "KE". */
  country: string;
}

export interface PremiseRecord {
  sourceId: string;
  name: string;
  type: PremiseType;
  address: PremiseAddress;
  phone?: string;
  /** OpenStreetMap opening_hours syntax, e.g. "Mo-Fr 08:00-17:00; Sa 09:00-13:00". */
  openingHours?: string;
  latitude?: number;
  longitude?: number;
  services?: string[];
  /** True for made-up records such as the default dataset's premises. */
  sampleData: boolean;
}

export type InteractionSeverity = 'major' | 'moderate' | 'minor';

/** Advice on a drug and food (DrugBank gives only the drug and the advice). */
export interface FoodInteractionRecord {
  /** Stable id from the source; see foodInteractionSourceId(). */
  sourceId: string;
  drugName: string;
  drugbankId?: string;
  /** The food or drink, e.g. "Grapefruit juice"; empty when the source names it only in the advice. */
  food?: string;
  severity?: InteractionSeverity;
  effect?: string;
  advice: string;
}
