/** Velt's success envelope: `{result: {status: "success", message, data}}`. */
export interface SuccessEnvelope<T> {
  result: { status: 'success'; message: string; data: T };
}

export const success = <T>(message: string, data: T): SuccessEnvelope<T> => ({ result: { status: 'success', message, data } });
