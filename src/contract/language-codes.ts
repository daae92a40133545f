import { z } from 'zod';
import { LANGUAGE_INVALID, SUPPORTED_LANGUAGES } from './languages';

/** A stored language: one of SUPPORTED_LANGUAGES exactly (what the APIs accept and return; decision 066). */
export const LanguageCode = z.enum(SUPPORTED_LANGUAGES, { message: LANGUAGE_INVALID });
