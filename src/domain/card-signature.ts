/**
 * How a signed card can be spoiled as it is served (A2A §8.4): what a client that verifies cards
 * must refuse. Chaos chooses one (`card-signature=`); the card binding applies it.
 */
export const CARD_SIGNATURE_FAULTS = ['invalid', 'missing', 'wrong-key'] as const;
export type CardSignatureFault = (typeof CARD_SIGNATURE_FAULTS)[number];
